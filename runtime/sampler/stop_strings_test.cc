// Checks stop strings across piece boundaries, hold-back and flushing.
#include "runtime/sampler/stop_strings.h"

#include "gtest/gtest.h"
#include "runtime/sampler/rng.h"

namespace cpubrrr {
namespace {

TEST(StopStrings, HoldsBackPossibleStarts) {
  StopStringMatcher m({"Help", "</s>"});
  EXPECT_EQ(m.Feed("Say Hel").text, "Say ");
  EXPECT_EQ(m.Feed("lo <").text, "Hello ");
  StopStringMatcher::Result r = m.Feed("/s> tail");
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(m.Feed("more").text.empty());
  EXPECT_EQ(m.Flush(), "");
}

TEST(StopStrings, EarliestStopWinsAndFlushReturnsHeldText) {
  StopStringMatcher m({"bc", "abcd"});
  StopStringMatcher::Result r = m.Feed("xabcd");
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.text, "x");  // "abcd" starts before "bc"
  StopStringMatcher n({"END"});
  EXPECT_EQ(n.Feed("the EN").text, "the ");
  EXPECT_EQ(n.Flush(), "EN");
  StopStringMatcher none({""});
  EXPECT_EQ(none.Feed("abc").text, "abc");
}

TEST(StopStrings, RandomSplitsGiveTheSameText) {
  const std::string text = "alpha <|im_end|> never <|im_end|> shown";
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    Xoshiro256 r(seed);
    StopStringMatcher m({"<|im_end|>", "zzz"});
    std::string out;
    bool stopped = false;
    for (size_t i = 0; i < text.size() && !stopped;) {
      size_t n = 1 + r.Next() % 6;
      StopStringMatcher::Result res = m.Feed(text.substr(i, n));
      out += res.text;
      stopped = res.stopped;
      i += n;
    }
    out += m.Flush();
    EXPECT_TRUE(stopped);
    EXPECT_EQ(out, "alpha ") << seed;
  }
}

}  // namespace
}  // namespace cpubrrr
