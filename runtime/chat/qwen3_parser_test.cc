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
