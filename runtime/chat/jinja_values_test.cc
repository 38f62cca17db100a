// Python's str() and str.strip() as the chat templates see them.
#include "runtime/chat/jinja_values.h"

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(JinjaValues, StrPrintsAsPython) {
  using Json = nlohmann::ordered_json;
  EXPECT_EQ(JinjaStr(Json("text")), "text");
  EXPECT_EQ(JinjaStr(Json(true)), "True");
  EXPECT_EQ(JinjaStr(Json(nullptr)), "None");
  EXPECT_EQ(JinjaStr(Json(1.5)), "1.5");
  EXPECT_EQ(JinjaStr(Json::parse(R"(["string", null, true, 2])")), "['string', None, True, 2]");
  EXPECT_EQ(JinjaStr(Json::parse(R"({"k": "it's", "q": "a\"b'c", "n": "x\ny"})")),
            R"({'k': "it's", 'q': 'a"b\'c', 'n': 'x\ny'})");
}

TEST(JinjaValues, TrimStripsWhatPythonCallsSpace) {
  EXPECT_EQ(JinjaTrim("  \t\nabc \r\n"), "abc");
  EXPECT_EQ(JinjaTrim("\xe3\x80\x80\xc2\xa0" "abc" "\xe2\x80\x83\xe3\x80\x80"), "abc");  // U+3000, U+00A0, U+2003
  EXPECT_EQ(JinjaTrim("\xe2\x80\x8b" "abc"), "\xe2\x80\x8b" "abc");  // U+200B is not space to Python
  EXPECT_EQ(JinjaTrim("\xc3\xa9 "), "\xc3\xa9");
  EXPECT_EQ(JinjaTrim("\xff abc \xe3"), "\xff abc \xe3");  // broken UTF-8 at the ends is kept
  EXPECT_EQ(JinjaTrim(" \x1c "), "");
  EXPECT_EQ(JinjaTrim(""), "");
}

}  // namespace
}  // namespace cpubrrr
