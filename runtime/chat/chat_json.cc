// OpenAI-style JSON to ChatRequest conversion.
#include "runtime/chat/chat_json.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "runtime/chat/py_json.h"

namespace cpubrrr {
namespace {

using Json = nlohmann::ordered_json;

absl::Status ReadString(const Json& obj, const char* key, std::string& out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return absl::OkStatus();
  if (!it->is_string()) return absl::InvalidArgumentError(std::string("chat json: '") + key + "' is not a string");
  out = it->get<std::string>();
  return absl::OkStatus();
}

absl::StatusOr<ToolCall> ReadToolCall(const Json& j) {
  if (!j.is_object()) return absl::InvalidArgumentError("chat json: tool call is not an object");
  ToolCall call;
  if (absl::Status s = ReadString(j, "id", call.id); !s.ok()) return s;
  const Json& fn = j.contains("function") ? j["function"] : j;
  if (!fn.is_object()) return absl::InvalidArgumentError("chat json: tool call function is not an object");
  if (absl::Status s = ReadString(fn, "name", call.name); !s.ok()) return s;
  auto args = fn.find("arguments");
  if (args != fn.end()) {
    call.arguments = args->is_string() ? args->get<std::string>() : PyJsonDumps(*args);
  }
  return call;
}

absl::StatusOr<ChatMessage> ReadMessage(const Json& j) {
  if (!j.is_object()) return absl::InvalidArgumentError("chat json: message is not an object");
  ChatMessage m;
  const std::pair<const char*, std::string*> fields[] = {
      {"role", &m.role}, {"content", &m.content}, {"tool_call_id", &m.tool_call_id}, {"name", &m.name}};
  for (const auto& [key, field] : fields) {
    if (absl::Status s = ReadString(j, key, *field); !s.ok()) return s;
  }
  if (m.role.empty()) return absl::InvalidArgumentError("chat json: message without role");
  for (const char* key : {"reasoning", "reasoning_content"}) {
    if (absl::Status s = ReadString(j, key, m.reasoning); !s.ok()) return s;
  }
  auto calls = j.find("tool_calls");
  if (calls != j.end() && !calls->is_null()) {
    if (!calls->is_array()) return absl::InvalidArgumentError("chat json: tool_calls is not an array");
    for (const Json& c : *calls) {
      absl::StatusOr<ToolCall> call = ReadToolCall(c);
      if (!call.ok()) return call.status();
      m.tool_calls.push_back(*std::move(call));
    }
  }
  return m;
}

}  // namespace

absl::StatusOr<ChatRequest> ChatRequestFromJson(const Json& json) {
  if (!json.is_object()) return absl::InvalidArgumentError("chat json: request is not an object");
  ChatRequest r;
  auto messages = json.find("messages");
  if (messages == json.end() || !messages->is_array()) {
    return absl::InvalidArgumentError("chat json: 'messages' is not an array");
  }
  for (const Json& m : *messages) {
    absl::StatusOr<ChatMessage> message = ReadMessage(m);
    if (!message.ok()) return message.status();
    r.messages.push_back(*std::move(message));
  }
  auto tools = json.find("tools");
  if (tools != json.end() && !tools->is_null()) {
    if (!tools->is_array()) return absl::InvalidArgumentError("chat json: 'tools' is not an array");
    for (const Json& t : *tools) r.tools.push_back(t);
  }
  std::string effort;
  if (absl::Status s = ReadString(json, "reasoning_effort", effort); !s.ok()) return s;
  if (!effort.empty() && !ReasoningEffortFromName(effort, r.reasoning_effort)) {
    return absl::InvalidArgumentError("chat json: unknown reasoning_effort '" + effort + "'");
  }
  const std::pair<const char*, bool*> flags[] = {{"enable_thinking", &r.enable_thinking},
                                                  {"add_generation_prompt", &r.add_generation_prompt}};
  for (const auto& [key, flag] : flags) {
    auto it = json.find(key);
    if (it == json.end() || it->is_null()) continue;
    if (!it->is_boolean()) return absl::InvalidArgumentError(std::string("chat json: '") + key + "' is not a boolean");
    *flag = it->get<bool>();
  }
  if (absl::Status s = ReadString(json, "date", r.date); !s.ok()) return s;
  return r;
}

}  // namespace cpubrrr
