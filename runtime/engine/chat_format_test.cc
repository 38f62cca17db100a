// The chat format each file gets, Qwen3-Coder's calls read back as they were rendered, and
// tool schemas no template can walk refused rather than thrown.
#include "runtime/engine/chat_format.h"

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(ChatFormat, PickedByFamilyAndTemplate) {
  const std::string coder = "{{- '\\n<tool_call>\\n<function=' + tool_call.name + '>\\n' }}"
                            "{{- '<parameter=' + args_name + '>\\n' }}";
  EXPECT_EQ(ChatFormatOfTemplate(ChatFormat::kHarmony, ""), ChatFormat::kHarmony);
  EXPECT_EQ(ChatFormatOfTemplate(ChatFormat::kHarmony, coder), ChatFormat::kHarmony);
  EXPECT_EQ(ChatFormatOfTemplate(ChatFormat::kChatMl, ""), ChatFormat::kChatMl);
  EXPECT_EQ(ChatFormatOfTemplate(ChatFormat::kChatMl, "{{- '<tool_call>\\n{\"name\": ' }}"), ChatFormat::kChatMl);
  EXPECT_EQ(ChatFormatOfTemplate(ChatFormat::kChatMl, coder), ChatFormat::kQwen3Coder);
}

TEST(ChatFormat, Qwen3CoderReadsBackTheCallsItRenders) {
  const nlohmann::ordered_json tool = nlohmann::ordered_json::parse(R"({"type": "function", "function": {
    "name": "edit", "parameters": {"type": "object", "properties": {
      "path": {"type": "string"}, "line": {"type": "integer"}, "text": {"type": "string"}, "dry": {"type": "boolean"}}}}})");
  const ToolCall call{"call_0", "edit", R"({"path": "a.cc", "line": 7, "text": "x = 1;\n  y = \"2\";", "dry": false})"};
  ChatRequest request;
  request.tools = {tool};
  request.messages = {{.role = "user", .content = "fix it"}, {.role = "assistant", .tool_calls = {call}}};
  request.add_generation_prompt = false;
  absl::StatusOr<std::string> prompt = RenderChatPrompt(ChatFormat::kQwen3Coder, request);
  ASSERT_TRUE(prompt.ok()) << prompt.status();
  const std::string opener = "<|im_start|>assistant";
  const std::string answer = prompt->substr(prompt->rfind(opener) + opener.size());
  std::unique_ptr<ChatOutputParser> parser = NewChatOutputParser(ChatFormat::kQwen3Coder, request.tools);
  const ChatMessage parsed = ParseWhole(*parser, answer);
  ASSERT_EQ(parsed.tool_calls.size(), 1u) << answer;
  EXPECT_EQ(parsed.tool_calls[0], call);
  EXPECT_EQ(parsed.content, "");
}

// Found by the api_request fuzzer: `"oneOf": 0.9` threw out of the renderer and killed the
// server. Jinja would raise too; the request is refused, naming what is wrong.
TEST(ChatFormat, ToolSchemasTheTemplateCannotWalkAreRefused) {
  for (const char* property : {R"({"oneOf": 0.9})", R"({"type": "string", "enum": "abc"})",
                               R"({"type": "string", "enum": {"a": 1}})"}) {
    ChatRequest request;
    request.tools = {nlohmann::ordered_json::parse(std::string(R"({"type": "function", "function": {"name": "f",
      "parameters": {"type": "object", "properties": {"p": )") + property + "}}}}")};
    request.messages = {{.role = "user", .content = "Hi"}};
    for (ChatFormat format : {ChatFormat::kHarmony, ChatFormat::kChatMl, ChatFormat::kQwen3Coder}) {
      absl::StatusOr<std::string> prompt = RenderChatPrompt(format, request);
      if (format != ChatFormat::kHarmony) {  // the Qwen3 templates print schemas as JSON
        EXPECT_TRUE(prompt.ok()) << prompt.status();
        continue;
      }
      ASSERT_FALSE(prompt.ok()) << property;
      EXPECT_EQ(prompt.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(prompt.status().message().find("must be a list"), std::string::npos) << prompt.status();
    }
  }
}

}  // namespace
}  // namespace cpubrrr
