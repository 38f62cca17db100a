// Holds the chat data model shared by prompt renderers and output parsers.
#ifndef CPUBRRR_RUNTIME_CHAT_CHAT_TYPES_H_
#define CPUBRRR_RUNTIME_CHAT_CHAT_TYPES_H_

#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace cpubrrr {

// One function call requested by the assistant. `arguments` is JSON text (an object).
struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;

  bool operator==(const ToolCall&) const = default;
};

// One message of a conversation. Roles: "system", "developer", "user", "assistant", "tool".
struct ChatMessage {
  std::string role;
  std::string content;
  std::string reasoning;  // the assistant's chain of thought (empty: none)
  std::vector<ToolCall> tool_calls;
  std::string tool_call_id;  // for role "tool": the call answered
  std::string name;          // for role "tool": the function that answered

  bool operator==(const ChatMessage&) const = default;
};

enum class ReasoningEffort { kLow, kMedium, kHigh };

// Returns "low", "medium" or "high".
const char* ReasoningEffortName(ReasoningEffort effort);
// Sets `effort` from "low", "medium" or "high"; returns false for any other name.
bool ReasoningEffortFromName(const std::string& name, ReasoningEffort& effort);

// Everything a prompt renderer needs. `tools` are OpenAI-style entries
// {"type": "function", "function": {"name", "description", "parameters": <JSON schema>}};
// ordered_json keeps key order, which the templates print.
struct ChatRequest {
  std::vector<ChatMessage> messages;
  std::vector<nlohmann::ordered_json> tools;
  ReasoningEffort reasoning_effort = ReasoningEffort::kMedium;  // gpt-oss only
  bool enable_thinking = true;                                  // Qwen3 only
  // Earlier assistant turns keep their reasoning in the prompt, which the official
  // templates drop (llama-server's --reasoning-preserve); unset: the engine's default.
  std::optional<bool> preserve_reasoning;
  // OpenAI's tool_choice beyond "auto" ("none" offers no tools): the answer must be a
  // call of a function in `tools` ("required"), or of `tool_choice_name` when named.
  bool require_tool_call = false;
  std::string tool_choice_name;
  bool parallel_tool_calls = true;  // a required answer may hold more than one call
  std::string date;            // "YYYY-MM-DD" for gpt-oss; empty: today (UTC)
  std::string model_identity;  // gpt-oss system line; empty: the official default
  bool add_generation_prompt = true;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_CHAT_TYPES_H_
