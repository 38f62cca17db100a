// The Responses API: bodies read as chat bodies, and the event sequence of a streamed answer.
#include "server/responses_api.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace cpubrrr::server {
namespace {

TEST(ResponsesToChatBodyTest, ItemsMakeChatMessages) {
  const Json body = Json::parse(R"({
    "model": "m", "instructions": "Be brief.", "max_output_tokens": 9, "temperature": 0.2,
    "reasoning": {"effort": "high"}, "store": false,
    "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}, {"type": "web_search"}],
    "input": [
      {"role": "developer", "content": "Rules."},
      {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]},
      {"type": "reasoning", "summary": [], "content": [{"type": "reasoning_text", "text": "think"}]},
      {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Let me look."}]},
      {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
      {"type": "function_call_output", "call_id": "c1", "output": "42"}
    ]})");
  absl::StatusOr<Json> chat = ResponsesToChatBody(body);
  ASSERT_TRUE(chat.ok()) << chat.status();
  const Json expected = Json::parse(R"([
    {"role": "system", "content": "Be brief."},
    {"role": "system", "content": "Rules."},
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": "Let me look.", "reasoning_content": "think",
     "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "42"}])");
  EXPECT_EQ((*chat)["messages"], expected) << (*chat)["messages"].dump();
  EXPECT_EQ((*chat)["max_tokens"], 9);
  EXPECT_EQ((*chat)["reasoning_effort"], "high");
  EXPECT_EQ((*chat)["temperature"], 0.2);
  EXPECT_EQ((*chat)["tools"], Json::parse(R"([{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}])"));
  EXPECT_FALSE(chat->contains("input") || chat->contains("instructions") || chat->contains("store"));
}

TEST(ResponsesToChatBodyTest, RefusesWhatItCannotRead) {
  EXPECT_EQ(ResponsesToChatBody(Json::parse(R"({"input": "x", "previous_response_id": "resp_1"})")).status().code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(ResponsesToChatBody(Json::parse(R"({"input": [{"type": "item_reference", "id": "x"}]})")).status().code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(ResponsesToChatBody(Json::parse(R"({"input": [{"role": "user", "content": [{"type": "input_image"}]}]})")).status().code(),
            absl::StatusCode::kUnimplemented);
  for (const char* body : {R"({})", R"({"input": 3})", R"({"input": [{"role": "robot", "content": "x"}]})",
                           R"({"input": [{"type": "function_call", "name": "f"}]})", R"({"input": [7]})",
                           R"({"input": "x", "instructions": 5})", R"({"input": "x", "tools": {}})"}) {
    EXPECT_EQ(ResponsesToChatBody(Json::parse(body)).status().code(), absl::StatusCode::kInvalidArgument) << body;
  }
}

TEST(ResponsesEventsTest, ReasoningTextAndToolCallInOrder) {
  std::vector<Json> events;
  ResponsesEvents stream("resp_1", 5, "m", Json::object(), [&](const std::string& type, const Json& data) {
    EXPECT_EQ(data["type"], type);
    events.push_back(data);
  });
  stream.Start();
  stream.Delta({.reasoning = "Th"});
  stream.Delta({.reasoning = "ink"});
  stream.Delta({.content = "Hel"});
  stream.Delta({.content = "lo"});
  stream.Delta({.tool_calls = {{.id = "call_9", .name = "f", .arguments = "{\"a\":1}"}}});
  GenerateResult result;
  result.message.tool_calls.push_back({});
  result.timings.prompt_tokens = 7;
  result.timings.generated_tokens = 5;
  stream.Finish(result);

  std::vector<std::string> types;
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i]["sequence_number"], i);
    types.push_back(events[i]["type"]);
  }
  const std::vector<std::string> expected = {
      "response.created", "response.in_progress",
      "response.output_item.added", "response.content_part.added", "response.reasoning_text.delta",
      "response.reasoning_text.delta", "response.reasoning_text.done", "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added", "response.content_part.added", "response.output_text.delta",
      "response.output_text.delta", "response.output_text.done", "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added", "response.function_call_arguments.delta",
      "response.function_call_arguments.done", "response.output_item.done",
      "response.completed"};
  EXPECT_EQ(types, expected);
  EXPECT_EQ(events[6]["text"], "Think");
  EXPECT_EQ(events[13]["text"], "Hello");
  EXPECT_EQ(events[11]["output_index"], 1);
  const Json& response = events.back()["response"];
  ASSERT_EQ(response["output"].size(), 3u);
  EXPECT_EQ(response["output"][0]["content"][0]["text"], "Think");
  EXPECT_EQ(response["output"][1]["content"][0]["text"], "Hello");
  EXPECT_EQ(response["output"][2]["call_id"], "call_9");
  EXPECT_EQ(response["output"][2]["arguments"], "{\"a\":1}");
  EXPECT_EQ(response["usage"]["total_tokens"], 12);
  EXPECT_EQ(response["status"], "completed");
}

TEST(ResponsesEventsTest, MaxTokensEndsIncomplete) {
  std::vector<Json> events;
  ResponsesEvents stream("resp_1", 5, "m", Json::object(), [&](const std::string&, const Json& data) { events.push_back(data); });
  stream.Start();
  stream.Delta({.content = "cut"});
  GenerateResult result;
  result.finish = FinishReason::kMaxTokens;
  stream.Finish(result);
  EXPECT_EQ(events.back()["type"], "response.incomplete");
  EXPECT_EQ(events.back()["response"]["incomplete_details"]["reason"], "max_output_tokens");
  const Json whole = ResponseObject("resp_2", 5, "m", Json::parse(R"({"max_output_tokens": 3})"), result);
  EXPECT_EQ(whole["status"], "incomplete");
  EXPECT_EQ(whole["max_output_tokens"], 3);
}

}  // namespace
}  // namespace cpubrrr::server
