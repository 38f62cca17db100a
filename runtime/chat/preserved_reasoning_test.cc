// Checks that with preserve_reasoning a conversation renders as the model wrote it: each
// earlier answer, reasoning included, stays where its own generation put it, so the next
// turn's prompt extends the previous prompt and answer.
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "runtime/chat/harmony_renderer.h"
#include "runtime/chat/qwen3_renderer.h"

namespace cpubrrr {
namespace {

using Renderer = absl::StatusOr<std::string> (*)(const ChatRequest&);

// A conversation whose first answer reasoned, with the second question or without it.
ChatRequest Conversation(bool second_question) {
  ChatRequest r;
  r.date = "2026-12-04";
  r.messages = {{.role = "user", .content = "What is 6 times 7?"},
                {.role = "assistant", .content = "42.", .reasoning = "Six sevens are forty-two."}};
  if (second_question) r.messages.push_back({.role = "user", .content = "And 6 times 8?"});
  return r;
}

// Returns the prompt of the first turn followed by `answer`, what the model generated.
std::string FirstTurnAndAnswer(Renderer render, const std::string& answer) {
  ChatRequest first = Conversation(false);
  first.messages.pop_back();
  return *render(first) + answer;
}

void CheckPreserved(Renderer render, const std::string& answer) {
  const std::string generated = FirstTurnAndAnswer(render, answer);
  ChatRequest next = Conversation(true);
  next.preserve_reasoning = true;
  absl::StatusOr<std::string> preserved = render(next);
  ASSERT_TRUE(preserved.ok()) << preserved.status();
  EXPECT_TRUE(absl::StartsWith(*preserved, generated)) << *preserved << "\nshould start with\n" << generated;

  next.preserve_reasoning = false;
  absl::StatusOr<std::string> dropped = render(next);
  ASSERT_TRUE(dropped.ok()) << dropped.status();
  EXPECT_FALSE(absl::StrContains(*dropped, "forty-two")) << *dropped;
  next.preserve_reasoning.reset();
  EXPECT_EQ(*render(next), *dropped) << "unset means the template's own choice";
}

TEST(PreservedReasoning, HarmonyKeepsTheAnalysisOfEarlierAnswers) {
  CheckPreserved(RenderHarmonyPrompt,
                 "<|channel|>analysis<|message|>Six sevens are forty-two.<|end|>"
                 "<|start|>assistant<|channel|>final<|message|>42.");
}

TEST(PreservedReasoning, Qwen3KeepsTheThinkBlocksOfEarlierAnswers) {
  CheckPreserved(RenderQwen3Prompt, "<think>\nSix sevens are forty-two.\n</think>\n\n42.");
}

TEST(PreservedReasoning, HarmonyKeepsAToolCallsReasoningAfterAFinalAnswer) {
  ChatRequest r;
  r.date = "2026-12-04";
  r.tools = {nlohmann::ordered_json::parse(
      R"({"type": "function", "function": {"name": "clock", "description": "the time", "parameters": {"type": "object", "properties": {}}}})")};
  r.messages = {{.role = "user", .content = "Time?"},
                {.role = "assistant", .reasoning = "Ask the clock.", .tool_calls = {{.name = "clock", .arguments = "{}"}}},
                {.role = "tool", .content = "noon"},
                {.role = "assistant", .content = "Noon."},
                {.role = "user", .content = "Thanks"}};
  EXPECT_FALSE(absl::StrContains(*RenderHarmonyPrompt(r), "Ask the clock."));
  r.preserve_reasoning = true;
  EXPECT_TRUE(absl::StrContains(*RenderHarmonyPrompt(r),
                                "<|channel|>analysis<|message|>Ask the clock.<|end|><|start|>assistant to=functions.clock"));
}

}  // namespace
}  // namespace cpubrrr
