// Checks the harmony output parser on well-formed, malformed and randomly split output.
#include "runtime/chat/harmony_parser.h"

#include "gtest/gtest.h"
#include "runtime/chat/parser_test_util.h"

namespace cpubrrr {
namespace {

ChatMessage Parse(std::string_view text) {
  HarmonyParser parser;
  return ParseWhole(parser, text);
}

ParserFactory Factory() {
  return [] { return std::make_unique<HarmonyParser>(); };
}

TEST(HarmonyParser, AnalysisThenFinal) {
  ChatMessage m = Parse(
      "<|channel|>analysis<|message|>User says hi.<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>");
  EXPECT_EQ(m.reasoning, "User says hi.");
  EXPECT_EQ(m.content, "Hello!");
  EXPECT_TRUE(m.tool_calls.empty());
}

TEST(HarmonyParser, StopsAtReturnAndCallButNotEnd) {
  HarmonyParser p;
  p.Feed("<|channel|>analysis<|message|>x<|end|>");
  EXPECT_FALSE(p.done());
  ChatDelta d = p.Feed("<|start|>assistant<|channel|>final<|message|>y<|return|>ignored");
  EXPECT_TRUE(p.done());
  EXPECT_EQ(d.content, "y");
  EXPECT_TRUE(p.Feed("more").empty());
  EXPECT_TRUE(p.Finish().empty());
}

TEST(HarmonyParser, ToolCallWithRecipientInChannel) {
  HarmonyParser p;
  ChatMessage m = ParseWhole(p,
                             "<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>"
                             "commentary to=functions.get_weather <|constrain|>json<|message|>{\"location\":\"Paris\"}"
                             "<|call|>");
  EXPECT_TRUE(p.done());
  EXPECT_EQ(m.reasoning, "Need weather.");
  EXPECT_EQ(m.content, "");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0], (ToolCall{"call_0", "get_weather", "{\"location\":\"Paris\"}"}));
}

TEST(HarmonyParser, ToolCallWithRecipientInRole) {
  ChatMessage m = Parse(" to=functions.lookup<|channel|>commentary json<|message|> {\"q\": [1, 2]} <|call|>");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "lookup");
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"q\": [1, 2]}");
}

TEST(HarmonyParser, CommentaryPreambleIsContent) {
  ChatMessage m = Parse("<|channel|>commentary<|message|>Checking...<|end|><|start|>assistant to=functions.f"
                        "<|channel|>commentary json<|message|>{}<|call|>");
  EXPECT_EQ(m.content, "Checking...");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "f");
}

TEST(HarmonyParser, MissingStartBetweenMessages) {
  ChatMessage m = Parse("<|channel|>analysis<|message|>a<|channel|>final<|message|>b");
  EXPECT_EQ(m.reasoning, "a");
  EXPECT_EQ(m.content, "b");
}

TEST(HarmonyParser, PlainTextIsContent) {
  ChatMessage m = Parse("Hello, world! <b>bold</b> 2 < 3");
  EXPECT_EQ(m.content, "Hello, world! <b>bold</b> 2 < 3");
  EXPECT_EQ(m.reasoning, "");
}

TEST(HarmonyParser, MalformedHeadersFallBackToContent) {
  EXPECT_EQ(Parse("<|channel|>analysis!!<|message|>x").content, "<|channel|>analysis!!<|message|>x");
  EXPECT_EQ(Parse("<|channel|>final").content, "<|channel|>final");  // truncated header
  EXPECT_EQ(Parse("<|channel|>final<|end|>after").content, "<|channel|>finalafter");
  std::string long_header = "<|channel|>" + std::string(300, 'a') + "<|message|>x";
  EXPECT_EQ(Parse(long_header).content, long_header);
  ChatMessage m = Parse("<|channel|>final<|message|>ok<|end|>stray text");
  EXPECT_EQ(m.content, "okstray text");
}

TEST(HarmonyParser, BadToolArgumentsFallBackToContent) {
  ChatMessage m = Parse("<|channel|>commentary to=functions.f json<|message|>{\"a\": <|call|>");
  EXPECT_TRUE(m.tool_calls.empty());
  EXPECT_EQ(m.content, "{\"a\": ");
}

TEST(HarmonyParser, TruncatedToolCall) {
  EXPECT_EQ(Parse("<|channel|>commentary to=functions.f json<|message|>{\"a\": 1}").tool_calls.size(), 1u);
  EXPECT_EQ(Parse("<|channel|>commentary to=functions.f json<|message|>{\"a\": 1").content, "{\"a\": 1");
}

TEST(HarmonyParser, TruncatedFinalKeepsText) {
  ChatMessage m = Parse("<|channel|>analysis<|message|>thinking about <|en");
  EXPECT_EQ(m.reasoning, "thinking about <|en");
}

const char* const kSamples[] = {
    "<|channel|>analysis<|message|>User says hi.<|end|><|start|>assistant<|channel|>final<|message|>Hello! 👋 "
    "Привет<|return|>",
    "<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary "
    "to=functions.get_weather <|constrain|>json<|message|>{\"location\":\"Zürich\"}<|call|>",
    " to=functions.lookup<|channel|>commentary json<|message|>{\"q\": \"<|x\"}<|call|>",
    "<|channel|>analysis<|message|>a<|channel|>final<|message|>b <|en d|> <|sta",
    "Plain <text> with <|fake|> markers <| and <|start|>assistant<|channel|>final<|message|>done",
    "<|channel|>analysis!!<|message|>x<|end|>y<|start|>user<|message|>z<|end|>",
    "<|channel|>final<|message|>ok<|end|>stray<|start|>assistant<|channel|>final<|message|>more<|end|>",
};

TEST(HarmonyParserFuzz, RandomSplitsGiveTheSameResult) {
  for (const char* sample : kSamples) {
    ChatMessage whole = Parse(sample);
    for (uint64_t seed = 0; seed < 200; ++seed) {
      ASSERT_EQ(ParseInPieces(Factory(), sample, seed), whole) << "seed " << seed << " sample " << sample;
    }
  }
}

TEST(HarmonyParserFuzz, RandomMarkerSoupIsSplitInvariant) {
  const std::vector<std::string> alphabet = {
      "<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|constrain|>", "<|return|>", "<|call|>",
      "assistant", "analysis", "final", "commentary", " to=functions.f", " json", "{\"a\": 1}", "{", "}",
      "hi", " ", "\n", "<|", "|>", "<", "é", "!"};
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
