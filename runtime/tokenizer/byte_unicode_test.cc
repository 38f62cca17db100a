// Checks the GPT-2 byte <-> character map against its known anchor points.
#include "runtime/tokenizer/byte_unicode.h"

#include <set>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(ByteUnicode, MapsAnchorBytes) {
  EXPECT_EQ(ByteToUnicode('A'), "A");
  EXPECT_EQ(ByteToUnicode(' '), "\xC4\xA0");   // U+0120 "Ġ"
  EXPECT_EQ(ByteToUnicode('\n'), "\xC4\x8A");  // U+010A "Ċ"
  EXPECT_EQ(ByteToUnicode(0x00), "\xC4\x80");  // U+0100
  EXPECT_EQ(ByteToUnicode(0xAD), "\xC5\x83");  // U+0143, the last extra character
  EXPECT_EQ(ByteToUnicode(0xE9), "\xC3\xA9");  // Latin-1 kept
}

TEST(ByteUnicode, RoundTripsAllBytes) {
  std::set<std::string> seen;
  for (int b = 0; b < 256; ++b) {
    std::string bytes;
    ASSERT_TRUE(UnicodeToBytes(ByteToUnicode(b), &bytes));
    EXPECT_EQ(bytes, std::string(1, static_cast<char>(b)));
    seen.insert(ByteToUnicode(b));
  }
  EXPECT_EQ(seen.size(), 256u);
  std::string out;
  EXPECT_FALSE(UnicodeToBytes("\xE6\x97\xA5", &out));  // not a mapped character
  EXPECT_FALSE(UnicodeToBytes(" ", &out));             // space itself is not mapped
}

}  // namespace
}  // namespace cpubrrr
