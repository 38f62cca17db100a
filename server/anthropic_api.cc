// Reading Messages API requests into chat requests and writing its content blocks.
#include "server/anthropic_api.h"

#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "runtime/chat/py_json.h"
#include "runtime/engine/tool_choice.h"
#include "server/server_state.h"

namespace cpubrrr::server {
namespace {

// The text of a string or of an array of text blocks; other blocks fail.
absl::StatusOr<std::string> Text(const Json& content, const std::string& where) {
  if (content.is_string()) return content.get<std::string>();
  if (!content.is_array()) return absl::InvalidArgumentError("'" + where + "' must be a string or an array of blocks");
  std::string text;
  for (const Json& block : content) {
    if (StringField(block, "type") != "text" || !block.contains("text") || !block["text"].is_string()) {
      return absl::UnimplementedError("'" + where + "': only text blocks are supported here");
    }
    text += block["text"].get<std::string>();
  }
  return text;
}

// Appends the chat messages of one Messages API message: tool results become tool
// messages; text, thinking and tool_use blocks fill one user or assistant message.
absl::Status AddMessage(const Json& m, size_t index, std::vector<ChatMessage>& out) {
  const std::string where = absl::StrCat("messages[", index, "]");
  if (!m.is_object() || !m.contains("role") || !m["role"].is_string()) {
    return absl::InvalidArgumentError("'" + where + "' must be an object with a string role");
  }
  ChatMessage message{.role = m["role"].get<std::string>()};
  if (message.role != "user" && message.role != "assistant") {
    return absl::InvalidArgumentError("'" + where + ".role' must be user or assistant");
  }
  const Json& content = m.contains("content") ? m["content"] : Json("");
  if (content.is_string()) {
    message.content = content.get<std::string>();
    out.push_back(std::move(message));
    return absl::OkStatus();
  }
  if (!content.is_array()) return absl::InvalidArgumentError("'" + where + ".content' must be a string or an array of blocks");
  for (const Json& block : content) {
    const std::string type = StringField(block, "type");
    if (type == "text" && block.contains("text") && block["text"].is_string()) {
      message.content += block["text"].get<std::string>();
    } else if (type == "thinking" && block.contains("thinking") && block["thinking"].is_string()) {
      message.reasoning += block["thinking"].get<std::string>();
    } else if (type == "tool_use" && block.contains("name") && block["name"].is_string()) {
      message.tool_calls.push_back({.id = StringField(block, "id"), .name = block["name"].get<std::string>(),
                                    .arguments = PyJsonDumps(block.value("input", Json::object()))});
    } else if (type == "tool_result") {
      absl::StatusOr<std::string> text = Text(block.value("content", Json("")), where + ".content.tool_result");
      if (!text.ok()) return text.status();
      out.push_back({.role = "tool", .content = *text, .tool_call_id = StringField(block, "tool_use_id")});
    } else if (type == "redacted_thinking") {
      continue;  // nothing to show the model
    } else {
      return absl::UnimplementedError("'" + where + ".content': block type '" + type + "' is not supported");
    }
  }
  if (!message.content.empty() || !message.reasoning.empty() || !message.tool_calls.empty()) out.push_back(std::move(message));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<AnthropicRequest> ParseAnthropicMessages(const Json& body) {
  AnthropicRequest r;
  const JsonFields f(body);
  GenerateRequest& g = r.generate;
  int64_t max_tokens = 0, top_k = g.sampling.top_k;
  const absl::Status checks[] = {
      f.Int("max_tokens", max_tokens, 1, INT32_MAX),
      f.Float("temperature", g.sampling.temperature, 0, 1),
      f.Float("top_p", g.sampling.top_p, 0, 1),
      f.Int("top_k", top_k, 0, INT32_MAX),
      f.Strings("stop_sequences", g.stop),
      f.Bool("stream", r.stream),
  };
  for (const absl::Status& s : checks) {
    if (!s.ok()) return s;
  }
  if (!f.Has("max_tokens")) return absl::InvalidArgumentError("'max_tokens' is required");
  g.max_tokens = static_cast<int32_t>(max_tokens);
  g.sampling.top_k = static_cast<int32_t>(top_k);
  g.sampling.seed = std::random_device{}();
  if (f.Has("system")) {
    absl::StatusOr<std::string> system = Text(body["system"], "system");
    if (!system.ok()) return system.status();
    g.chat.messages.push_back({.role = "system", .content = *system});
  }
  if (!body.contains("messages") || !body["messages"].is_array() || body["messages"].empty()) {
    return absl::InvalidArgumentError("'messages' must be a non-empty array");
  }
  for (size_t i = 0; i < body["messages"].size(); ++i) {
    if (absl::Status s = AddMessage(body["messages"][i], i, g.chat.messages); !s.ok()) return s;
  }
  // tool_choice: auto, none (no tools shown), any (a call required) or tool (that one).
  std::string tool_choice = "auto";
  if (f.Has("tool_choice")) {
    const Json& choice = body["tool_choice"];
    if (!choice.is_object() || !choice.contains("type") || !choice["type"].is_string()) {
      return f.Bad("tool_choice", "an object with a string type");
    }
    tool_choice = choice["type"].get<std::string>();
    if (tool_choice != "auto" && tool_choice != "none" && tool_choice != "any" && tool_choice != "tool") {
      return f.Bad("tool_choice", "auto, any, tool or none");
    }
    if (tool_choice == "tool") {
      g.chat.tool_choice_name = StringField(choice, "name");
      if (g.chat.tool_choice_name.empty()) return f.Bad("tool_choice", "a tool choice with a name");
    }
    g.chat.require_tool_call = tool_choice == "any" || tool_choice == "tool";
    if (choice.contains("disable_parallel_tool_use")) {
      if (!choice["disable_parallel_tool_use"].is_boolean()) return f.Bad("tool_choice.disable_parallel_tool_use", "a boolean");
      g.chat.parallel_tool_calls = !choice["disable_parallel_tool_use"].get<bool>();
    }
  }
  if (f.Has("tools") && tool_choice != "none") {
    if (!body["tools"].is_array()) return f.Bad("tools", "an array");
    for (const Json& tool : body["tools"]) {
      if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) {
        return f.Bad("tools", "an array of objects with a string name");
      }
      Json function = {{"name", tool["name"]}};
      if (tool.contains("description")) function["description"] = tool["description"];
      function["parameters"] = tool.value("input_schema", Json::object());
      g.chat.tools.push_back({{"type", "function"}, {"function", function}});
    }
  }
  if (f.Has("thinking")) {
    const Json& thinking = body["thinking"];
    if (!thinking.is_object() || !thinking.contains("type") || !thinking["type"].is_string()) {
      return f.Bad("thinking", "an object with a string type");
    }
    if (thinking["type"] == "disabled") {
      g.chat.enable_thinking = false;
      g.chat.reasoning_effort = ReasoningEffort::kLow;  // gpt-oss always reasons
    }
  }
  if (absl::Status s = CheckToolChoice(g.chat); !s.ok()) return s;
  return r;
}

const char* AnthropicStopReason(const GenerateResult& result) {
  if (!result.message.tool_calls.empty()) return "tool_use";
  switch (result.finish) {
    case FinishReason::kMaxTokens:
    case FinishReason::kContextFull:
      return "max_tokens";
    case FinishReason::kStopString:
      return "stop_sequence";
    default:
      return "end_turn";
  }
}

Json AnthropicToolUse(const ToolCall& call) {
  Json input = Json::parse(call.arguments, nullptr, false);
  if (input.is_discarded() || !input.is_object()) input = Json::object();
  return {{"type", "tool_use"}, {"id", call.id.empty() ? RandomId("toolu_") : call.id}, {"name", call.name}, {"input", input}};
}

Json AnthropicContent(const ChatMessage& message) {
  Json content = Json::array();
  if (!message.reasoning.empty()) content.push_back({{"type", "thinking"}, {"thinking", message.reasoning}, {"signature", ""}});
  if (!message.content.empty() || message.tool_calls.empty()) content.push_back({{"type", "text"}, {"text", message.content}});
  for (const ToolCall& call : message.tool_calls) content.push_back(AnthropicToolUse(call));
  return content;
}

Json AnthropicUsage(const GenerateTimings& t) {
  return {{"input_tokens", t.prompt_tokens - t.reused_tokens},
          {"output_tokens", t.generated_tokens},
          {"cache_read_input_tokens", t.reused_tokens}};
}

}  // namespace cpubrrr::server
