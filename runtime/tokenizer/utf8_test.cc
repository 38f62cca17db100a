// Checks UTF-8 validation, llama.cpp-style replacement and the streaming boundary.
#include "runtime/tokenizer/utf8.h"

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(Utf8, ValidatesPerTheUnicodeTable) {
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9 \xE6\x97\xA5 \xF0\x9F\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("\x80"));                  // stray continuation
  EXPECT_FALSE(IsValidUtf8("\xC3"));                  // truncated
  EXPECT_FALSE(IsValidUtf8("\xC0\x80"));              // overlong
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));          // surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));      // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xFF"));
}

TEST(Utf8, ReplacesEachInvalidByte) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(ReplaceInvalidUtf8("a\x80z"), "a" + r + "z");
  EXPECT_EQ(ReplaceInvalidUtf8("\xE2\x82" "A"), r + r + "A");  // truncated: one per byte
  EXPECT_EQ(ReplaceInvalidUtf8("\xF0\x9F\x98"), r + r + r);
  EXPECT_EQ(ReplaceInvalidUtf8("ok \xC3\xA9"), "ok \xC3\xA9");
}

TEST(Utf8, FindsTheCompletePrefix) {
  EXPECT_EQ(CompleteUtf8Prefix("abc"), 3u);
  EXPECT_EQ(CompleteUtf8Prefix("ab\xF0\x9F"), 2u);      // emoji still open
  EXPECT_EQ(CompleteUtf8Prefix("ab\xF0\x9F\x98"), 2u);
  EXPECT_EQ(CompleteUtf8Prefix("ab\xF0\x9F\x98\x80"), 6u);
  EXPECT_EQ(CompleteUtf8Prefix("ab\xC3"), 2u);
  EXPECT_EQ(CompleteUtf8Prefix("ab\xE0\x80"), 4u);      // can never complete: emit
  EXPECT_EQ(CompleteUtf8Prefix("ab\xFF"), 3u);
  EXPECT_EQ(CompleteUtf8Prefix("\x80\x80\x80\x80"), 4u);
}

}  // namespace
}  // namespace cpubrrr
