// Checks Python-compatible JSON printing and the Jinja value helpers.
#include "runtime/chat/py_json.h"

#include "gtest/gtest.h"
#include "runtime/chat/jinja_values.h"

namespace cpubrrr {
namespace {

using Json = nlohmann::ordered_json;

TEST(PyJson, MatchesPythonJsonDumps) {
  // Expected strings are what Python 3.11 json.dumps(x, ensure_ascii=False) prints.
  EXPECT_EQ(PyJsonDumps(Json::parse(R"({"b": 1, "a": [true, null, 2.5, "x"]})")),
            R"({"b": 1, "a": [true, null, 2.5, "x"]})");
  EXPECT_EQ(PyJsonDumps(Json::parse("{}")), "{}");
  EXPECT_EQ(PyJsonDumps(Json::parse("[]")), "[]");
  EXPECT_EQ(PyJsonDumps(Json::parse("1e-05")), "1e-05");
  EXPECT_EQ(PyJsonDumps(Json::parse("1e16")), "1e+16");
  EXPECT_EQ(PyJsonDumps(Json::parse("1e15")), "1000000000000000.0");
  EXPECT_EQ(PyJsonDumps(Json::parse("-0.1")), "-0.1");
  EXPECT_EQ(PyJsonDumps(Json::parse("-3e15")), "-3000000000000000.0");
  EXPECT_EQ(PyJsonDumps(Json::parse("1.2345678901234568e+15")), "1234567890123456.8");
  EXPECT_EQ(PyJsonDumps(Json::parse("0.0001")), "0.0001");
  EXPECT_EQ(PyJsonDumps(Json::parse("1.5e-07")), "1.5e-07");
  EXPECT_EQ(PyJsonDumps(Json::parse("1e100")), "1e+100");
  EXPECT_EQ(PyJsonDumps(Json::parse("2.0")), "2.0");
  EXPECT_EQ(PyJsonDumps(Json::parse("123.456")), "123.456");
  EXPECT_EQ(PyJsonQuote("é\"\\\n\t\x01\x7f😀"), "\"é\\\"\\\\\\n\\t\\u0001\x7f😀\"");
}

TEST(JinjaValues, TruthinessAndStr) {
  EXPECT_FALSE(JinjaTruthy(Json()));
  EXPECT_FALSE(JinjaTruthy(Json("")));
  EXPECT_FALSE(JinjaTruthy(Json::array()));
  EXPECT_FALSE(JinjaTruthy(Json(0)));
  EXPECT_TRUE(JinjaTruthy(Json("x")));
  EXPECT_TRUE(JinjaTruthy(Json(0.5)));
  EXPECT_EQ(JinjaStr(Json(true)), "True");
  EXPECT_EQ(JinjaStr(Json()), "None");
  EXPECT_EQ(JinjaStr(Json(3)), "3");
  EXPECT_TRUE(JinjaAttr(Json(1), "x").is_null());
  EXPECT_EQ(CodePointCount("aé😀"), 3u);
}

}  // namespace
}  // namespace cpubrrr
