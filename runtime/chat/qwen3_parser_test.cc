// Checks the Qwen3 output parser on well-formed, malformed and randomly split output.
#include "runtime/chat/qwen3_parser.h"

#include "gtest/gtest.h"
#include "runtime/chat/parser_test_util.h"

namespace cpubrrr {
namespace {

ChatMessage Parse(std::string_view text, bool forced_open = false) {
  Qwen3Parser parser(forced_open);
  return ParseWhole(parser, text);
}

TEST(Qwen3Parser, ThinkThenContent) {
  ChatMessage m = Parse("<think>\nThe user greets.\n</think>\n\nHello!");
  EXPECT_EQ(m.reasoning, "The user greets.");
  EXPECT_EQ(m.content, "Hello!");
}

TEST(Qwen3Parser, EmptyThinkBlockAndThinkingOff) {
  ChatMessage m = Parse("<think>\n\n</think>\n\nHi");
  EXPECT_EQ(m.reasoning, "");
  EXPECT_EQ(m.content, "Hi");
  EXPECT_EQ(Parse("Just text.\n").content, "Just text.\n");
}

TEST(Qwen3Parser, ForcedOpenThinking) {
  ChatMessage m = Parse("reasoning here\n</think>\n\nanswer", /*forced_open=*/true);
  EXPECT_EQ(m.reasoning, "reasoning here");
  EXPECT_EQ(m.content, "answer");
}

TEST(Qwen3Parser, ThinkOnlyAtStart) {
  ChatMessage m = Parse("Text <think>not reasoning</think>");
  EXPECT_EQ(m.reasoning, "");
  EXPECT_EQ(m.content, "Text <think>not reasoning</think>");
}

TEST(Qwen3Parser, ToolCalls) {
  ChatMessage m = Parse(
      "<think>\nCall it.\n</think>\n\nLet me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
      "{\"location\": \"Paris\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n"
      "</tool_call><|im_end|>");
  EXPECT_EQ(m.reasoning, "Call it.");
  EXPECT_EQ(m.content, "Let me check.");
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0], (ToolCall{"call_0", "get_weather", "{\"location\": \"Paris\"}"}));
  EXPECT_EQ(m.tool_calls[1], (ToolCall{"call_1", "get_time", "{}"}));
}

TEST(Qwen3Parser, StopsAtImEnd) {
  Qwen3Parser p;
  ChatDelta d = p.Feed("Hi<|im_end|>junk");
  EXPECT_TRUE(p.done());
  EXPECT_EQ(d.content, "Hi");
  EXPECT_TRUE(p.Feed("x").empty());
}

TEST(Qwen3Parser, MalformedToolCallsFallBackToContent) {
  EXPECT_EQ(Parse("<tool_call>\nnot json\n</tool_call>").content, "<tool_call>\nnot json\n</tool_call>");
  EXPECT_EQ(Parse("<tool_call>{\"arguments\": {}}</tool_call>").content, "<tool_call>{\"arguments\": {}}</tool_call>");
  EXPECT_EQ(Parse("<tool_call>\n{\"name\": \"f\"").content, "<tool_call>\n{\"name\": \"f\"");
  ChatMessage m = Parse("<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n");  // truncated but complete JSON
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\": 1}");
}

TEST(Qwen3Parser, TruncatedThinking) {
  ChatMessage m = Parse("<think>\nstill thinking\n");
  EXPECT_EQ(m.reasoning, "still thinking");
  EXPECT_EQ(m.content, "");
}

const char* const kSamples[] = {
    "<think>\nThe user greets.\n\nSecond line.\n</think>\n\nHello! 👋 Привет",
    "<think>\nCall it.\n</think>\n\nLet me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
    "{\"location\": \"Zürich\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"t\", \"arguments\": {}}\n</tool_call>",
    "  \n<think>x</think>a <tool_call>bad</tool_call> b\n\n<|im_end|>",
    "text with <tool and </think> and <|im_ and <think>",
    "<thinking>not a tag</thinking>",
    "<tool_call>\n{\"name\": \"f\", \"arguments\": \"{\\\"a\\\":1}\"}\n</tool_call>  trailing  ",
};

// Qwen3-Coder's form, as its template writes calls and the model answers.
constexpr char kXmlCalls[] =
    "I'll look.\n<tool_call>\n<function=search_code>\n<parameter=query>\nparser\n</parameter>\n"
    "<parameter=limit>\n3\n</parameter>\n<parameter=exact>\ntrue\n</parameter>\n<parameter=paths>\n"
    "[\"src\", \"lib\"]\n</parameter>\n<parameter=note>\n42\n</parameter>\n<parameter=code>\n"
    "if (a < b) {\n  return;\n}\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n"
    "</function>\n</tool_call><|im_end|>";

StringParameters CoderStrings() {
  const nlohmann::ordered_json tools = nlohmann::ordered_json::parse(R"([
    {"type": "function", "function": {"name": "search_code", "parameters": {"type": "object", "properties": {
      "query": {"type": "string"}, "limit": {"type": "integer"}, "exact": {"type": "boolean"},
      "paths": {"type": "array"}, "note": {"type": ["string"]}, "code": {"type": "string"}}}}},
    {"type": "function", "function": {"name": "get_time"}}])");
  return StringParametersOf({tools.begin(), tools.end()});
}

TEST(Qwen3Parser, XmlToolCallsTypedBySchema) {
  Qwen3Parser parser(false, CoderStrings());
  ChatMessage m = ParseWhole(parser, kXmlCalls);
  EXPECT_EQ(m.content, "I'll look.");
  ASSERT_EQ(m.tool_calls.size(), 2u);
  // Strings stay text ("42" too, its schema says string); the rest is JSON.
  EXPECT_EQ(m.tool_calls[0], (ToolCall{"call_0", "search_code",
                                       "{\"query\": \"parser\", \"limit\": 3, \"exact\": true, \"paths\": "
                                       "[\"src\", \"lib\"], \"note\": \"42\", \"code\": \"if (a < b) {\\n  return;\\n}\"}"}));
  EXPECT_EQ(m.tool_calls[1], (ToolCall{"call_1", "get_time", "{}"}));
}

TEST(Qwen3Parser, XmlValuesWithoutASchemaAreJsonWhenTheyParse) {
  ChatMessage m = Parse("<tool_call>\n<function=f>\n<parameter=a>\n3\n</parameter>\n<parameter=b>\nhello world\n"
                        "</parameter>\n<parameter=c>\n{\"k\": null}\n</parameter>\n</function>\n</tool_call>");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\": 3, \"b\": \"hello world\", \"c\": {\"k\": null}}");
}

TEST(Qwen3Parser, XmlValueWithoutItsClosingTagEndsAtTheNextTag) {
  ChatMessage m = Parse("<tool_call>\n<function=f>\n<parameter=a>\n1\n<parameter=b>\nx\n</parameter>\n"
                        "<parameter=c>\n2\n</function>\n</tool_call>");
  ASSERT_EQ(m.tool_calls.size(), 1u) << m.content;
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\": 1, \"b\": \"x\", \"c\": 2}");
}

TEST(Qwen3Parser, MalformedXmlCallsFallBackToContent) {
  for (const char* body : {"<function=f>\n<parameter=a>\n1", "<function=>\n</function>",
                           "<function=f>\n</function>\ntrailing", "<function=f\n</function>", "<functio=f></function>"}) {
    ChatMessage m = Parse(std::string("<tool_call>\n") + body + "\n</tool_call>");
    EXPECT_TRUE(m.tool_calls.empty()) << body;
    EXPECT_NE(m.content.find("<tool_call>"), std::string::npos) << body;
  }
}

TEST(Qwen3ParserFuzz, XmlCallsAreSplitInvariant) {
  Qwen3Parser parser(false, CoderStrings());
  const ChatMessage whole = ParseWhole(parser, kXmlCalls);
  const ParserFactory make = [] { return std::make_unique<Qwen3Parser>(false, CoderStrings()); };
  for (uint64_t seed = 0; seed < 200; ++seed) ASSERT_EQ(ParseInPieces(make, kXmlCalls, seed), whole) << "seed " << seed;
}

ParserFactory Factory() {
  return [] { return std::make_unique<Qwen3Parser>(); };
}

TEST(Qwen3ParserFuzz, RandomSplitsGiveTheSameResult) {
  for (const char* sample : kSamples) {
    ChatMessage whole = Parse(sample);
    for (uint64_t seed = 0; seed < 200; ++seed) {
      ASSERT_EQ(ParseInPieces(Factory(), sample, seed), whole) << "seed " << seed << " sample " << sample;
    }
  }
}

TEST(Qwen3ParserFuzz, RandomTagSoupIsSplitInvariant) {
  const std::vector<std::string> alphabet = {
      "<think>", "</think>", "<tool_call>", "</tool_call>", "<|im_end|>", "{\"name\": \"f\", \"arguments\": {}}",
      "{", "}", "hi", " ", "\n", "\n\n", "<", "</", "think>", "é", "<|"};
  for (uint64_t text_seed = 1; text_seed <= 300; ++text_seed) {
    std::string text = RandomText(alphabet, 12, text_seed);
    ChatMessage whole = Parse(text);
    for (uint64_t seed = 0; seed < 20; ++seed) {
      ASSERT_EQ(ParseInPieces(Factory(), text, seed), whole) << "text seed " << text_seed << ": " << text;
    }
  }
}

}  // namespace
}  // namespace cpubrrr
