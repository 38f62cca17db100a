// Qwen3-Coder prompt rendering, following the official template's control flow.
#include "runtime/chat/qwen3_coder_renderer.h"

#include <initializer_list>
#include <string_view>

#include "runtime/chat/jinja_values.h"
#include "runtime/chat/py_json.h"

namespace cpubrrr {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kDefaultSystem[] =
    "You are Qwen, a helpful AI assistant that can interact with a computer to solve tasks.";
constexpr char kToolsHeader[] = "\n\n# Tools\n\nYou have access to the following tools:\n\n<tools>";
constexpr char kToolsFooter[] =
    "\n</tools>\n\nIf you choose to call a tool ONLY reply in the following format with NO suffix:\n\n"
    "<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n"
    "</parameter>\n<parameter=example_parameter_2>\nvalue_2\n</parameter>\n</function>\n</tool_call>\n\n"
    "<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: the tool calling block "
    "MUST begin with an opening <tool_call> tag and end with a closing </tool_call> tag.\n- Required "
    "parameters MUST be specified\n- You may provide optional reasoning for your function call in "
    "natural language BEFORE the function call, but NOT after\n- If there is no function call "
    "available, answer the question like normal with your current knowledge and do not tell the user "
    "about function calls\n</IMPORTANT>";

std::string Trim(const std::string& s) { return JinjaTrim(s); }

// A value as the template prints it: containers as JSON, the rest through str().
std::string ValueText(const Json& v) { return v.is_object() || v.is_array() ? PyJsonDumps(v) : JinjaStr(v); }

// The template's render_extra_keys: every member not in `handled` as <key>value</key>.
std::string ExtraKeys(const Json& object, std::initializer_list<std::string_view> handled) {
  std::string out;
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items()) {
    bool skip = false;
    for (std::string_view h : handled) skip |= key == h;
    if (!skip) out += "\n<" + key + ">" + ValueText(value) + "</" + key + ">";
  }
  return out;
}

std::string ToolXml(const Json& entry) {
  const Json& tool = entry.contains("function") ? entry["function"] : entry;
  // An undefined name prints as nothing, a null one as None.
  const std::string name = tool.is_object() && tool.contains("name") ? JinjaStr(tool["name"]) : "";
  std::string out = "\n<function>\n<name>" + name + "</name>";
  if (tool.is_object() && tool.contains("description")) out += "\n<description>" + Trim(JinjaStr(tool["description"])) + "</description>";
  out += "\n<parameters>";
  const Json& parameters = JinjaAttr(tool, "parameters");
  const Json& properties = JinjaAttr(parameters, "properties");
  if (properties.is_object()) {
    for (const auto& [name, fields] : properties.items()) {
      out += "\n<parameter>\n<name>" + name + "</name>";
      if (fields.contains("type")) out += "\n<type>" + JinjaStr(fields["type"]) + "</type>";
      if (fields.contains("description")) out += "\n<description>" + Trim(JinjaStr(fields["description"])) + "</description>";
      out += ExtraKeys(fields, {"name", "type", "description"});
      out += "\n</parameter>";
    }
  }
  out += ExtraKeys(parameters, {"type", "properties"});
  out += "\n</parameters>";
  out += ExtraKeys(tool, {"type", "name", "description", "parameters"});
  return out + "\n</function>";
}

absl::Status AppendToolCalls(const ChatMessage& m, std::string& out) {
  out += "<|im_start|>assistant";
  if (!Trim(m.content).empty()) out += "\n" + Trim(m.content) + "\n";
  for (const ToolCall& call : m.tool_calls) {
    // No arguments at all (some clients send "") are the empty object.
    const Json arguments = call.arguments.empty() ? Json::object()
                                                  : Json::parse(call.arguments, nullptr, /*allow_exceptions=*/false);
    if (!arguments.is_object()) {
      return absl::InvalidArgumentError("qwen3-coder: the arguments of a call to '" + call.name + "' are not a JSON object");
    }
    out += "\n<tool_call>\n<function=" + call.name + ">\n";
    for (const auto& [key, value] : arguments.items()) out += "<parameter=" + key + ">\n" + ValueText(value) + "\n</parameter>\n";
    out += "</function>\n</tool_call>";
  }
  out += "<|im_end|>\n";
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> RenderQwen3CoderPrompt(const ChatRequest& request) {
  const std::vector<ChatMessage>& messages = request.messages;
  if (messages.empty()) return absl::InvalidArgumentError("qwen3-coder: no messages");
  const bool has_system = messages[0].role == "system";
  const bool has_tools = !request.tools.empty();
  std::string out;
  if (has_system) {
    out += "<|im_start|>system\n" + messages[0].content;
  } else if (has_tools) {
    out += std::string("<|im_start|>system\n") + kDefaultSystem;
  }
  if (has_tools) {
    out += kToolsHeader;
    for (const Json& tool : request.tools) out += ToolXml(tool);
    out += kToolsFooter;
  }
  if (has_system || has_tools) out += "<|im_end|>\n";
  const size_t first = has_system ? 1 : 0;
  for (size_t i = first; i < messages.size(); ++i) {
    const ChatMessage& m = messages[i];
    const bool last = i + 1 == messages.size();
    if (m.role == "assistant" && !m.tool_calls.empty()) {
      if (absl::Status s = AppendToolCalls(m, out); !s.ok()) return s;
    } else if (m.role == "tool") {
      // The template opens the user turn only after a message of its own loop.
      if (i > first && messages[i - 1].role != "tool") out += "<|im_start|>user\n";
      out += "<tool_response>\n" + m.content + "\n</tool_response>\n";
      if (last || messages[i + 1].role != "tool") out += "<|im_end|>\n";
    } else {
      out += "<|im_start|>" + m.role + "\n" + m.content + "<|im_end|>\n";
    }
  }
  if (request.add_generation_prompt) out += "<|im_start|>assistant\n";
  return out;
}

}  // namespace cpubrrr
