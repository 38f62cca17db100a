// Reads chat requests from OpenAI-style JSON (test cases, and later the HTTP server).
#ifndef CPUBRRR_RUNTIME_CHAT_CHAT_JSON_H_
#define CPUBRRR_RUNTIME_CHAT_CHAT_JSON_H_

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "runtime/chat/chat_types.h"

namespace cpubrrr {

// Converts {"messages": [...], "tools": [...], "reasoning_effort": "low|medium|high",
// "enable_thinking": bool, "date": "YYYY-MM-DD", "add_generation_prompt": bool}.
// A message has "role", "content" (string or null), "reasoning" or "reasoning_content",
// "tool_calls" ([{"id", "function": {"name", "arguments"}}] or flat {"id", "name",
// "arguments"}; arguments as JSON text or as an object), "tool_call_id", "name".
// Fails on missing roles, wrong types and unknown reasoning efforts; never throws.
absl::StatusOr<ChatRequest> ChatRequestFromJson(const nlohmann::ordered_json& json);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_CHAT_JSON_H_
