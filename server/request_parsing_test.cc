// Request bodies of both APIs to engine requests: fields, defaults and the errors that
// name the field; the key comparison.
#include <string>

#include "gtest/gtest.h"
#include "server/anthropic_api.h"
#include "server/http_server.h"
#include "server/ollama_api.h"
#include "server/openai_request.h"
#include "server/server_state.h"

namespace cpubrrr::server {
namespace {

Json Parse(const std::string& text) { return Json::parse(text); }

TEST(OpenAiRequest, ChatFields) {
  absl::StatusOr<OpenAiRequest> r = ParseChatCompletionRequest(Parse(R"({
    "model": "x", "messages": [{"role": "system", "content": [{"type": "text", "text": "be "}, {"type": "text", "text": "brief"}]},
                               {"role": "user", "content": "Hi"},
                               {"role": "assistant", "content": null, "reasoning_content": "hmm"}],
    "max_completion_tokens": 7, "temperature": 0.5, "top_p": 0.9, "top_k": 3, "min_p": 0.1, "seed": 42,
    "stop": "END", "presence_penalty": 0.5, "stream": true, "stream_options": {"include_usage": true},
    "logprobs": true, "top_logprobs": 2, "reasoning_effort": "high",
    "chat_template_kwargs": {"enable_thinking": false}, "tools": [{"type": "function", "function": {"name": "f"}}]})"));
  ASSERT_TRUE(r.ok()) << r.status();
  const GenerateRequest& g = r->generate;
  ASSERT_EQ(g.chat.messages.size(), 3u);
  EXPECT_EQ(g.chat.messages[0].content, "be brief");
  EXPECT_EQ(g.chat.messages[2].reasoning, "hmm");
  EXPECT_EQ(g.max_tokens, 7);
  EXPECT_FLOAT_EQ(g.sampling.temperature, 0.5f);
  EXPECT_EQ(g.sampling.top_k, 3);
  EXPECT_EQ(g.sampling.seed, 42u);
  EXPECT_EQ(g.sampling.logprobs, 2);
  EXPECT_EQ(g.stop, std::vector<std::string>{"END"});
  EXPECT_TRUE(r->stream && r->include_usage && r->logprobs);
  EXPECT_EQ(g.chat.reasoning_effort, ReasoningEffort::kHigh);
  EXPECT_FALSE(g.chat.enable_thinking);
  EXPECT_EQ(g.chat.tools.size(), 1u);
}

TEST(OpenAiRequest, DefaultsAreLlamaCpps) {
  absl::StatusOr<OpenAiRequest> r = ParseChatCompletionRequest(Parse(R"({"messages": [{"role": "user", "content": "Hi"}]})"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->generate.max_tokens, -1);
  EXPECT_FLOAT_EQ(r->generate.sampling.temperature, 0.8f);
  EXPECT_EQ(r->generate.sampling.top_k, 40);
  EXPECT_EQ(r->generate.sampling.logprobs, -1);
  EXPECT_FALSE(r->stream);
}

TEST(OpenAiRequest, ErrorsNameTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"messages": []})", "messages"},
      {R"({"messages": [{"role": "user", "content": "Hi"}], "temperature": "hot"})", "temperature"},
      {R"({"messages": [{"role": "user", "content": "Hi"}], "top_p": 2})", "top_p"},
      {R"({"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1.5})", "max_tokens"},
      {R"({"messages": [{"role": "user", "content": "Hi"}], "n": 2})", "'n'"},
      {R"({"messages": [{"role": "user", "content": "Hi"}], "stop": [1]})", "stop"},
      {R"({"messages": [{"role": "user", "content": 5}]})", "messages[0].content"},
      {R"({"messages": [{"role": "user", "content": "Hi"}], "reasoning_effort": "max"})", "reasoning_effort"},
      {R"({"messages": [{"role": "user", "content": "Hi"}], "stream_options": {"include_usage": 1}})", "stream_options.include_usage"},
  };
  for (const auto& [body, field] : cases) {
    absl::StatusOr<OpenAiRequest> r = ParseChatCompletionRequest(Parse(body));
    ASSERT_FALSE(r.ok()) << body;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << body;
    EXPECT_NE(r.status().message().find(field), std::string::npos) << r.status();
  }
}

TEST(OpenAiRequest, ToolChoiceRequiredOrNamed) {
  const std::string head = R"({"messages": [{"role": "user", "content": "Hi"}], "tools": [)"
                           R"({"type": "function", "function": {"name": "f"}}, {"type": "function", "function": {"name": "g"}}])";
  absl::StatusOr<OpenAiRequest> required = ParseChatCompletionRequest(Parse(head + R"(, "tool_choice": "required"})"));
  ASSERT_TRUE(required.ok()) << required.status();
  EXPECT_TRUE(required->generate.chat.require_tool_call);
  EXPECT_EQ(required->generate.chat.tool_choice_name, "");
  EXPECT_EQ(required->generate.chat.tools.size(), 2u);
  absl::StatusOr<OpenAiRequest> named = ParseChatCompletionRequest(
      Parse(head + R"(, "tool_choice": {"type": "function", "function": {"name": "g"}}, "parallel_tool_calls": false})"));
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_TRUE(named->generate.chat.require_tool_call);
  EXPECT_EQ(named->generate.chat.tool_choice_name, "g");
  EXPECT_FALSE(named->generate.chat.parallel_tool_calls);
  absl::StatusOr<OpenAiRequest> none = ParseChatCompletionRequest(Parse(head + R"(, "tool_choice": "none"})"));
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->generate.chat.require_tool_call);
  EXPECT_TRUE(none->generate.chat.tools.empty());
  // A call that cannot be made is a 400 naming tool_choice.
  for (const std::string& body :
       {std::string(R"({"messages": [{"role": "user", "content": "Hi"}], "tool_choice": "required"})"),
        head + R"(, "tool_choice": {"type": "function", "function": {"name": "h"}}})",
        head + R"(, "tool_choice": {"type": "function"}})", head + R"(, "tool_choice": "any"})"}) {
    absl::StatusOr<OpenAiRequest> r = ParseChatCompletionRequest(Parse(body));
    ASSERT_FALSE(r.ok()) << body;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << body;
    EXPECT_NE(r.status().message().find("tool_choice"), std::string::npos) << r.status();
  }
}

TEST(OpenAiRequest, CompletionTakesARawPrompt) {
  absl::StatusOr<OpenAiRequest> r = ParseCompletionRequest(Parse(R"({"prompt": ["Once"], "logprobs": 3})"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->generate.raw_prompt, "Once");
  EXPECT_EQ(r->generate.sampling.logprobs, 3);
  EXPECT_FALSE(ParseCompletionRequest(Parse(R"({"prompt": 3})")).ok());
}

TEST(OllamaRequest, ChatWithOllamasDefaultsAndOptions) {
  absl::StatusOr<OllamaRequest> r = ParseOllamaChat(Parse(R"({"model": "m", "think": "high",
    "messages": [{"role": "user", "content": "Hi"},
                 {"role": "assistant", "content": "", "thinking": "t", "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}]},
                 {"role": "tool", "content": "r", "tool_name": "f"}],
    "options": {"num_predict": 5, "top_k": 7, "stop": ["x"]}})"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->stream);
  const GenerateRequest& g = r->generate;
  EXPECT_EQ(g.max_tokens, 5);
  EXPECT_EQ(g.sampling.top_k, 7);
  EXPECT_FLOAT_EQ(g.sampling.top_p, 0.9f);
  EXPECT_FLOAT_EQ(g.sampling.repeat_penalty, 1.1f);
  EXPECT_EQ(g.chat.reasoning_effort, ReasoningEffort::kHigh);
  ASSERT_EQ(g.chat.messages.size(), 3u);
  EXPECT_EQ(g.chat.messages[1].reasoning, "t");
  ASSERT_EQ(g.chat.messages[1].tool_calls.size(), 1u);
  EXPECT_EQ(g.chat.messages[1].tool_calls[0].arguments, "{\"a\": 1}");
  EXPECT_EQ(g.chat.messages[2].name, "f");
  EXPECT_FALSE(ParseOllamaChat(Parse(R"({"model": "m", "messages": [], "options": {"top_p": "x"}})")).ok());
  EXPECT_FALSE(ParseOllamaChat(Parse(R"({"messages": []})")).ok());
}

TEST(OllamaRequest, GenerateRawAndEmpty) {
  absl::StatusOr<OllamaRequest> raw = ParseOllamaGenerate(Parse(R"({"model": "m", "prompt": "<|start|>", "raw": true})"));
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->generate.raw_prompt, "<|start|>");
  absl::StatusOr<OllamaRequest> empty = ParseOllamaGenerate(Parse(R"({"model": "m"})"));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->load_only);
  absl::StatusOr<OllamaRequest> chat = ParseOllamaGenerate(Parse(R"({"model": "m", "prompt": "Hi", "system": "S"})"));
  ASSERT_TRUE(chat.ok());
  ASSERT_EQ(chat->generate.chat.messages.size(), 2u);
  EXPECT_EQ(chat->generate.chat.messages[0].role, "system");
}

TEST(AnthropicRequest, BlocksToChatMessages) {
  absl::StatusOr<AnthropicRequest> r = ParseAnthropicMessages(Parse(R"({
    "model": "m", "max_tokens": 9, "system": [{"type": "text", "text": "S"}], "stop_sequences": ["x"],
    "messages": [{"role": "user", "content": "Hi"},
                 {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": "a"},
                                                   {"type": "tool_use", "id": "u1", "name": "f", "input": {"k": 2}}]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "u1", "content": "r"}]}],
    "tools": [{"name": "f", "input_schema": {"type": "object"}}], "thinking": {"type": "disabled"}})"));
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<ChatMessage>& m = r->generate.chat.messages;
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].role, "system");
  EXPECT_EQ(m[2].reasoning, "t");
  EXPECT_EQ(m[2].content, "a");
  ASSERT_EQ(m[2].tool_calls.size(), 1u);
  EXPECT_EQ(m[2].tool_calls[0].arguments, "{\"k\": 2}");
  EXPECT_EQ(m[3].role, "tool");
  EXPECT_EQ(m[3].tool_call_id, "u1");
  EXPECT_EQ(r->generate.max_tokens, 9);
  EXPECT_FALSE(r->generate.chat.enable_thinking);
  ASSERT_EQ(r->generate.chat.tools.size(), 1u);
  EXPECT_EQ(r->generate.chat.tools[0]["function"]["name"], "f");
  EXPECT_FALSE(ParseAnthropicMessages(Parse(R"({"messages": [{"role": "user", "content": "Hi"}]})")).ok());
  EXPECT_FALSE(ParseAnthropicMessages(Parse(R"({"max_tokens": 1, "messages": [{"role": "system", "content": "x"}]})")).ok());
}

TEST(AnthropicRequest, ToolChoiceAnyOrTool) {
  const std::string head = R"({"max_tokens": 8, "messages": [{"role": "user", "content": "Hi"}], "tools": [{"name": "f"}])";
  absl::StatusOr<AnthropicRequest> any = ParseAnthropicMessages(Parse(head + R"(, "tool_choice": {"type": "any"}})"));
  ASSERT_TRUE(any.ok()) << any.status();
  EXPECT_TRUE(any->generate.chat.require_tool_call);
  absl::StatusOr<AnthropicRequest> tool = ParseAnthropicMessages(
      Parse(head + R"(, "tool_choice": {"type": "tool", "name": "f", "disable_parallel_tool_use": true}})"));
  ASSERT_TRUE(tool.ok()) << tool.status();
  EXPECT_EQ(tool->generate.chat.tool_choice_name, "f");
  EXPECT_FALSE(tool->generate.chat.parallel_tool_calls);
  EXPECT_FALSE(ParseAnthropicMessages(Parse(head + R"(, "tool_choice": {"type": "tool", "name": "x"}})")).ok());
  EXPECT_FALSE(ParseAnthropicMessages(Parse(head + R"(, "tool_choice": {"type": "tool"}})")).ok());
}

TEST(ParseBody, RefusesDeepNestingAndNonObjects) {
  httplib::Request req;
  req.body = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(ParseBody(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.body = R"({"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["})";  // in a string
  EXPECT_TRUE(ParseBody(req).ok());
  req.body = "[1]";
  EXPECT_FALSE(ParseBody(req).ok());
  req.body = "{";
  EXPECT_FALSE(ParseBody(req).ok());
}

TEST(ApiKey, ConstantTimeEquals) {
  EXPECT_TRUE(ConstantTimeEquals("secret", "secret"));
  EXPECT_FALSE(ConstantTimeEquals("secret", "secreT"));
  EXPECT_FALSE(ConstantTimeEquals("secret", "secret2"));
  EXPECT_FALSE(ConstantTimeEquals("", "x"));
  EXPECT_TRUE(ConstantTimeEquals("", ""));
}

}  // namespace
}  // namespace cpubrrr::server
