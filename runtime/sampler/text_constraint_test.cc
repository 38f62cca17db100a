// TextConstraint: literal alternatives, free text up to a terminator, JSON objects
// (against nlohmann's parser on random strings) and the vocabulary mask.
#include "runtime/sampler/text_constraint.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace cpubrrr {
namespace {

// A vocabulary: the 256 single bytes, then `extra` tokens; `controls` of them are control.
struct Vocab {
  std::vector<std::string> texts;
  std::vector<bool> control;
  std::optional<TokenTexts> token_texts;

  explicit Vocab(const std::vector<std::string>& extra, const std::vector<std::string>& controls = {}) {
    for (int b = 0; b < 256; ++b) texts.emplace_back(1, static_cast<char>(b)), control.push_back(false);
    for (const std::string& t : extra) texts.push_back(t), control.push_back(false);
    for (const std::string& t : controls) texts.push_back(t), control.push_back(true);
    token_texts.emplace(std::vector<std::string_view>(texts.begin(), texts.end()), control);
  }
  Vocab(const Vocab&) = delete;
  int32_t Id(const std::string& text, bool is_control = false) const {
    for (size_t i = 0; i < texts.size(); ++i) {
      if (texts[i] == text && control[i] == is_control) return static_cast<int32_t>(i);
    }
    ADD_FAILURE() << "no token " << text;
    return -1;
  }
  TextConstraint Constraint(std::vector<ConstraintPhase> phases) const {
    return TextConstraint(std::move(phases), *token_texts);
  }
};

ConstraintPhase Literals(std::vector<std::pair<std::string, int>> literals, int spaces = 0) {
  return ConstraintPhase::Literals(std::move(literals), spaces);
}
constexpr auto FreeText = ConstraintPhase::FreeText;
ConstraintPhase JsonObject(int next) { return ConstraintPhase::Json(ConstraintPhase::kObject, next); }

// Feeds `text` byte by byte; returns how many bytes were accepted.
size_t AcceptBytes(TextConstraint& c, const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (!c.Accept(static_cast<unsigned char>(text[i]))) return i;
  }
  return text.size();
}

// The tokens Mask leaves possible.
std::vector<int32_t> Allowed(const TextConstraint& c, size_t vocab) {
  std::vector<float> logits(vocab, 1.0f);
  c.Mask(logits);
  std::vector<int32_t> out;
  for (size_t i = 0; i < vocab; ++i) {
    if (std::isfinite(logits[i])) out.push_back(static_cast<int32_t>(i));
  }
  return out;
}

TEST(TextConstraint, LiteralAlternativesSharePrefixesAndLeadToTheirPhases) {
  const Vocab v({"get", "get_time", "_weather", "\"}", "END"});
  // 0: "get_weather" -> 1 or "get_time" -> 2; 1 and 2: a literal each, then the end.
  TextConstraint c = v.Constraint({Literals({{"get_weather(", 1}, {"get_time(", 2}}, 2), Literals({{"w)", -1}}),
                                   Literals({{"t)", -1}})});
  // Up to two leading spaces.
  EXPECT_TRUE(c.Accept(' '));
  EXPECT_TRUE(c.Accept('\n'));
  EXPECT_EQ(Allowed(c, v.texts.size()), (std::vector<int32_t>{'g', v.Id("get"), v.Id("get_time")}));
  EXPECT_TRUE(c.Accept(v.Id("get")));
  EXPECT_EQ(Allowed(c, v.texts.size()), (std::vector<int32_t>{'_', v.Id("_weather")}));
  EXPECT_TRUE(c.Accept(v.Id("_weather")));
  EXPECT_EQ(AcceptBytes(c, "(w)"), 3u);
  // The end: nothing may follow, and the mask then changes nothing.
  std::vector<float> logits(v.texts.size(), 1.0f);
  EXPECT_EQ(c.Mask(logits), 0u);
  EXPECT_EQ(logits, std::vector<float>(v.texts.size(), 1.0f));
  EXPECT_FALSE(c.Accept('x'));
}

TEST(TextConstraint, LeadingSpaceIsBoundedAndALiteralMayStartWithSpace) {
  const Vocab v({});
  TextConstraint bounded = v.Constraint({Literals({{"a", -1}}, 1)});
  EXPECT_EQ(AcceptBytes(bounded, "  a"), 1u);
  TextConstraint spaced = v.Constraint({Literals({{" to", -1}})});
  EXPECT_EQ(AcceptBytes(spaced, " to"), 3u);
}

TEST(TextConstraint, FreeTextEndsAtItsTerminatorAcrossTokensAndMayRunIntoTheNextPhase) {
  const Vocab v({"</th", "ink>\n{", "<tool"}, {"<|im_end|>"});
  TextConstraint c = v.Constraint({FreeText("</think>", 1), JsonObject(-1)});
  EXPECT_EQ(AcceptBytes(c, "thinking </b> about it"), 22u);
  // A control token is not free text.
  const std::vector<int32_t> allowed = Allowed(c, v.texts.size());
  EXPECT_EQ(std::count(allowed.begin(), allowed.end(), v.Id("<|im_end|>", true)), 0);
  EXPECT_EQ(std::count(allowed.begin(), allowed.end(), v.Id("<tool")), 1);
  EXPECT_TRUE(c.Accept(v.Id("</th")));
  // "ink>\n{" ends the terminator, and the object opens after a newline.
  EXPECT_TRUE(c.Accept(v.Id("ink>\n{")));
  const std::string rest = "\"a\": [1, {\"b\": null}]}";
  EXPECT_EQ(AcceptBytes(c, rest), rest.size());
  EXPECT_FALSE(c.Accept(' '));
}

TEST(TextConstraint, AControlTokenMayEndFreeText) {
  const Vocab v({}, {"<|end|>", "<|return|>"});
  TextConstraint c = v.Constraint({FreeText("<|end|>", 1), Literals({{"x", -1}})});
  EXPECT_EQ(AcceptBytes(c, "analysis"), 8u);
  const std::vector<int32_t> allowed = Allowed(c, v.texts.size());
  EXPECT_EQ(std::count(allowed.begin(), allowed.end(), v.Id("<|end|>", true)), 1);
  EXPECT_EQ(std::count(allowed.begin(), allowed.end(), v.Id("<|return|>", true)), 0);
  EXPECT_TRUE(c.Accept(v.Id("<|end|>", true)));
  EXPECT_EQ(Allowed(c, v.texts.size()), std::vector<int32_t>{'x'});
}

TEST(TextConstraint, EmptyTokensNeverMatch) {
  const Vocab v({""});
  TextConstraint c = v.Constraint({FreeText("!", -1)});
  const std::vector<int32_t> allowed = Allowed(c, v.texts.size());
  EXPECT_EQ(std::count(allowed.begin(), allowed.end(), v.Id("")), 0);
  EXPECT_EQ(allowed.size(), 256u);
}

// Whether our scanner takes all of `text` and ends the object exactly at its last byte
// (the next phase then takes byte 1, which JSON allows nowhere, not even in a string).
bool ScannerTakesObject(const Vocab& v, const std::string& text) {
  TextConstraint c = v.Constraint({JsonObject(1), Literals({{"\x01", -1}})});
  if (AcceptBytes(c, text) != text.size()) return false;
  return c.Accept(1);
}

TEST(TextConstraint, JsonObjectsAreWhatNlohmannAccepts) {
  const Vocab v({});
  for (const char* good : {"{}", " {\"a\":1}", "{\"a\": [1, -2.5e+3, 0.0, true, false, null, \"\\u00e9\\n\"]}",
                           "{\"k\": {\"n\": {\"m\": []}}, \"z\": -0}", "{\"a\":1E5}"}) {
    EXPECT_TRUE(ScannerTakesObject(v, good)) << good;
  }
  for (const char* bad : {"[]", "{\"a\"}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":tru}", "{\"a\":\"\x01\"}", "{,}",
                          "{\"a\":1,}", "{\"a\":[1,]}", "{\"a\":\"\\x\"}", "{\"a\":-}", "{\"a\":1]}"}) {
    EXPECT_FALSE(ScannerTakesObject(v, bad)) << bad;
  }
  // Random strings over JSON's alphabet: ours takes one exactly when nlohmann parses it
  // to an object that ends at the last byte.
  std::mt19937 rng(7);
  const std::string alphabet = "{}[]\":,0123456789-+.eEtrufalsn \\u";
  int objects = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string s = "{";
    const int n = static_cast<int>(rng() % 12);
    for (int j = 0; j < n; ++j) s += alphabet[rng() % alphabet.size()];
    const bool want = nlohmann::json::accept(s) && nlohmann::json::parse(s).is_object() && s.back() == '}';
    objects += want;
    ASSERT_EQ(ScannerTakesObject(v, s), want) << s;
  }
  EXPECT_GT(objects, 100);
}

TEST(TextConstraint, WhitespaceBetweenJsonTokensIsBounded) {
  const Vocab v({});
  EXPECT_TRUE(ScannerTakesObject(v, "{\"a\":" + std::string(32, ' ') + "1}"));
  EXPECT_FALSE(ScannerTakesObject(v, "{\"a\":" + std::string(33, ' ') + "1}"));
  EXPECT_TRUE(ScannerTakesObject(v, "{\"a\": \"" + std::string(100, ' ') + "\"}"));
}

TEST(TextConstraint, ControlTokensAreNotJsonText) {
  const Vocab v({}, {"<|call|>"});
  TextConstraint c = v.Constraint({JsonObject(1), Literals({{"<|call|>", -1}})});
  EXPECT_EQ(AcceptBytes(c, "{\"a\": \"x"), 8u);
  EXPECT_FALSE(c.Accept(v.Id("<|call|>", true)));
  TextConstraint closed = v.Constraint({JsonObject(1), Literals({{"<|call|>", -1}})});
  EXPECT_EQ(AcceptBytes(closed, "{}"), 2u);
  EXPECT_TRUE(closed.Accept(v.Id("<|call|>", true)));
}

// Whether a value of `type` takes all of `text`, ended (for a number) by the "}" after it.
bool TakesValue(ConstraintPhase::JsonType type, const std::string& text) {
  const Vocab v({});
  TextConstraint c = v.Constraint({ConstraintPhase::Json(type, 1), Literals({{"}", -1}})});
  return AcceptBytes(c, text + "}") == text.size() + 1;
}

TEST(TextConstraint, TypedValuesEndTheirPhase) {
  using P = ConstraintPhase;
  EXPECT_TRUE(TakesValue(P::kInteger, " -12"));
  EXPECT_FALSE(TakesValue(P::kInteger, "1.5"));
  EXPECT_FALSE(TakesValue(P::kInteger, "\"1\""));
  EXPECT_TRUE(TakesValue(P::kNumber, "1.5e3"));
  EXPECT_TRUE(TakesValue(P::kNumber, "0"));
  EXPECT_FALSE(TakesValue(P::kNumber, "true"));
  EXPECT_TRUE(TakesValue(P::kString, "\"a, b\""));
  EXPECT_FALSE(TakesValue(P::kString, "[]"));
  EXPECT_TRUE(TakesValue(P::kArray, "[1, [2.5], {\"a\": 3}]"));
  EXPECT_FALSE(TakesValue(P::kArray, "{}"));
  for (const char* any : {"null", "false", "\"x\"", "7", "[]", "{\"k\": [1]}"}) EXPECT_TRUE(TakesValue(P::kAnyValue, any)) << any;
  // Values nested in an integer-typed phase are not typed: there is none.
  EXPECT_FALSE(TakesValue(P::kInteger, "[1.5]"));
}

// 3000 random tokens of 1-5 bytes from `alphabet` (seeded), beside the single bytes.
std::vector<std::string> RandomTokens(const std::string& alphabet, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> extra;
  for (int i = 0; i < 3000; ++i) {
    std::string t;
    for (int j = 1 + static_cast<int>(rng() % 5); j > 0; --j) t += alphabet[rng() % alphabet.size()];
    extra.push_back(t);
  }
  return extra;
}

// After each of `prefixes`, the tokens Mask allows are exactly those Accept takes.
void ExpectMaskIsWhatAcceptTakes(const Vocab& v, const std::vector<ConstraintPhase>& program,
                                 const std::vector<std::string>& prefixes) {
  for (const std::string& prefix : prefixes) {
    TextConstraint c = v.Constraint(program);
    ASSERT_EQ(AcceptBytes(c, prefix), prefix.size()) << prefix;
    const std::vector<int32_t> allowed = Allowed(c, v.texts.size());
    for (size_t id = 0; id < v.texts.size(); ++id) {
      TextConstraint copy = c;
      const bool mask = std::find(allowed.begin(), allowed.end(), static_cast<int32_t>(id)) != allowed.end();
      ASSERT_EQ(mask, copy.Accept(static_cast<int32_t>(id))) << "after '" << prefix << "': '" << v.texts[id] << "'";
    }
  }
}

TEST(TextConstraint, TheMaskIsWhatAcceptTakes) {
  // Random tokens over JSON's and the terminator's bytes, in every kind of phase.
  const Vocab v(RandomTokens("{}[]\":,0123456789-.e\\tfnul <>/ak", 11), {"<|x|>"});
  const std::vector<ConstraintPhase> program = {FreeText("</k>", 1), Literals({{"{\"a\":", 2}, {"{}", -1}}, 2),
                                                ConstraintPhase::Json(ConstraintPhase::kAnyValue, 3), Literals({{"}", -1}})};
  ExpectMaskIsWhatAcceptTakes(v, program, {"", "ab</", "x</k>", "</k> {\"a\":", "</k>{\"a\": [\"s", "</k>{\"a\": [\"s\\",
                                           "</k>{\"a\": 12", "</k>{\"a\": {\"b\": tr"});
}

TEST(TextConstraint, NestingDeeperThan64IsRefused) {
  const Vocab v({});
  std::string deep = "{\"a\":";
  for (int i = 0; i < 63; ++i) deep += "[";
  EXPECT_TRUE(ScannerTakesObject(v, deep + std::string(63, ']') + "}"));
  EXPECT_FALSE(ScannerTakesObject(v, deep + "[" + std::string(64, ']') + "}"));
}

TEST(TextConstraint, ALiteralThatIsAPrefixOfAnotherWaitsForTheNextByte) {
  const Vocab v({"10", "1}"});
  const std::vector<ConstraintPhase> program = {Literals({{"1", 1}, {"10", 1}, {"12", 1}, {"1", 1}}), Literals({{"}", -1}}, 1)};
  for (const char* good : {"1}", "10}", "12}", "1 }"}) {
    TextConstraint c = v.Constraint(program);
    EXPECT_EQ(AcceptBytes(c, good), std::string(good).size()) << good;
  }
  TextConstraint c = v.Constraint(program);
  EXPECT_EQ(AcceptBytes(c, "13"), 1u);
  // After "1", both the longer literals' bytes and the next phase's are allowed, also as
  // one token.
  TextConstraint t = v.Constraint(program);
  ASSERT_TRUE(t.Accept('1'));
  EXPECT_EQ(Allowed(t, v.texts.size()), (std::vector<int32_t>{'\t', '\n', '\r', ' ', '0', '2', '}'}));
  EXPECT_TRUE(v.Constraint(program).Accept(v.Id("10")));
  TextConstraint whole = v.Constraint(program);
  EXPECT_TRUE(whole.Accept(v.Id("1}")));
  EXPECT_FALSE(whole.Accept(' '));
}

TEST(TextConstraint, ForbiddenTextsAreRefusedWhateverTokensSpellThem) {
  const Vocab v({"</tool", "_call>", "</f>"});
  ConstraintPhase free = FreeText("</f>", 1);
  free.forbidden = {"</tool_call>"};
  ConstraintPhase json = JsonObject(-1);
  json.forbidden = {"</tool_call>"};
  const std::vector<ConstraintPhase> program = {free, json};
  TextConstraint c = v.Constraint(program);
  EXPECT_EQ(AcceptBytes(c, "a </tool_call>"), 13u);
  TextConstraint split = v.Constraint(program);
  EXPECT_TRUE(split.Accept(v.Id("</tool")));
  EXPECT_FALSE(split.Accept(v.Id("_call>")));
  // The terminator still ends the text, and the JSON phase forbids the same.
  TextConstraint in_json = v.Constraint(program);
  EXPECT_TRUE(in_json.Accept(v.Id("</f>")));
  EXPECT_EQ(AcceptBytes(in_json, "{\"a\": \"x</tool_call>\"}"), 19u);
  TextConstraint clean = v.Constraint(program);
  const std::string ok = "x</f>{\"a\": \"</tool_cal\"}";
  EXPECT_EQ(AcceptBytes(clean, ok), ok.size());
}

// Whether our scanner takes `s` (bytes between the quotes of a JSON string value) exactly
// when nlohmann's parser does.
void ExpectStringAsNlohmann(const Vocab& v, const std::string& s) {
  const std::string text = "{\"a\":\"" + s + "\"}";
  const bool want = nlohmann::json::accept(text);
  ASSERT_EQ(ScannerTakesObject(v, text), want) << testing::PrintToString(s);
}

TEST(TextConstraint, JsonStringsAreValidUtf8WithPairedSurrogatesAsNlohmannHasIt) {
  const Vocab v({});
  for (const char* s : {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3", "\xc0\x80", "\xe0\x80\xaf", "\xed\xa0\x80",
                        "\xf4\x90\x80\x80", "\xff", "\\ud83d\\ude00", "\\ud83d", "\\ude00", "\\ud83dx", "\\ud83d\\n",
                        "\\ud83d\\ud83d", "\\u0000"}) {
    ExpectStringAsNlohmann(v, s);
  }
  // Random bytes, weighted to UTF-8 lead and continuation bytes and escapes.
  std::mt19937 rng(5);
  const std::string alphabet = "a\\u0dDe8F\x80\xbf\x90\x9f\xa0\xc2\xdf\xe0\xed\xef\xf0\xf4\xf5";
  for (int i = 0; i < 100000; ++i) {
    std::string s;
    for (int j = static_cast<int>(rng() % 10); j > 0; --j) s += alphabet[rng() % alphabet.size()];
    ExpectStringAsNlohmann(v, s);
  }
}

TEST(TextConstraint, TheMaskCountsOnlyFiniteLogits) {
  const Vocab v({});
  TextConstraint c = v.Constraint({Literals({{"a", -1}})});
  std::vector<float> logits(v.texts.size(), 1.0f);
  logits['a'] = -std::numeric_limits<float>::infinity();
  const std::vector<float> before = logits;
  EXPECT_EQ(c.Mask(logits), 0u);
  EXPECT_EQ(logits, before);
  logits['a'] = 0.0f;
  EXPECT_EQ(c.Mask(logits), 1u);
}

TEST(TextConstraint, TheMaskIsWhatAcceptTakesWithForbiddenTextsAndUtf8) {
  const Vocab v(RandomTokens("{}\":a\\u<>/tx\xc3\xa9\xe2\x82", 13));
  ConstraintPhase free = FreeText("</x>", 1);
  free.forbidden = {"<tx>", "</t>"};
  ConstraintPhase json = JsonObject(-1);
  json.forbidden = {"<tx>", "</t>"};
  ExpectMaskIsWhatAcceptTakes(v, {free, json},
                              {"", "a</t", "<t", "</x>{\"a\": \"</", "</x>{\"a\": \"\xe2", "</x>{\"a\": \"\\ud83d",
                               "</x>{\"a\": \"\\ud83d\\u"});
}

}  // namespace
}  // namespace cpubrrr
