// Parsing Qwen3-Coder's XML tool calls and typing their values.
#include "runtime/chat/xml_tool_call.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "runtime/chat/py_json.h"

namespace cpubrrr {
namespace {

using Json = nlohmann::ordered_json;

bool OnlyString(const Json& schema) {
  if (!schema.is_object() || !schema.contains("type")) return false;
  const Json& type = schema["type"];
  if (type.is_string()) return type.get<std::string>() == "string";
  if (!type.is_array() || type.empty()) return false;
  for (const Json& t : type) {
    if (!t.is_string() || t.get<std::string>() != "string") return false;
  }
  return true;
}

// Removes `prefix` (after leading whitespace) from `text`; false when it is not there.
bool Consume(absl::string_view& text, absl::string_view prefix) {
  text = absl::StripLeadingAsciiWhitespace(text);
  if (!absl::StartsWith(text, prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// Reads "NAME>" (the rest of an opening tag) from `text`.
std::optional<std::string> TagName(absl::string_view& text) {
  const size_t close = text.find('>');
  if (close == absl::string_view::npos || close == 0) return std::nullopt;
  std::string name(absl::StripAsciiWhitespace(text.substr(0, close)));
  if (name.empty() || name.find_first_of("<\n") != std::string::npos) return std::nullopt;
  text.remove_prefix(close + 1);
  return name;
}

// Python's True, False and None as JSON; anything else discarded.
Json PythonLiteral(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text == "True") return true;
  if (text == "False") return false;
  if (text == "None") return nullptr;
  return Json(Json::value_t::discarded);
}

}  // namespace

StringParameters StringParametersOf(const std::vector<Json>& tools) {
  StringParameters out;
  for (const Json& entry : tools) {
    const Json* tool = entry.is_object() && entry.contains("function") ? &entry["function"] : &entry;
    if (!tool->is_object() || !tool->contains("name") || !(*tool)["name"].is_string()) continue;
    std::map<std::string, bool>& kinds = out[(*tool)["name"].get<std::string>()];
    const Json& parameters = tool->value("parameters", Json::object());
    if (!parameters.is_object() || !parameters.contains("properties") || !parameters["properties"].is_object()) continue;
    for (const auto& [name, schema] : parameters["properties"].items()) {
      if (schema.is_object() && schema.contains("type")) kinds[name] = OnlyString(schema);
    }
  }
  return out;
}

std::optional<ToolCall> ParseXmlToolCall(std::string_view whole, const StringParameters& strings) {
  absl::string_view body(whole.data(), whole.size());
  if (!Consume(body, "<function=")) return std::nullopt;
  std::optional<std::string> name = TagName(body);
  if (!name) return std::nullopt;
  const auto tool = strings.find(*name);
  Json arguments = Json::object();
  while (Consume(body, "<parameter=")) {
    std::optional<std::string> key = TagName(body);
    if (!key) return std::nullopt;
    // A value ends at its closing tag, or where the next parameter or the function's end
    // begins when the model left the closing tag out.
    const size_t close = body.find("</parameter>");
    const size_t end = std::min({close, body.find("\n<parameter="), body.find("\n</function>")});
    if (end == absl::string_view::npos) return std::nullopt;
    absl::string_view value = body.substr(0, end);
    body.remove_prefix(end == close ? end + absl::string_view("</parameter>").size() : end);
    // The template writes "\n" VALUE "\n": those two newlines are the tags', not the value's.
    if (absl::StartsWith(value, "\n")) value.remove_prefix(1);
    if (absl::EndsWith(value, "\n")) value.remove_suffix(1);
    const auto kind = tool == strings.end() ? std::map<std::string, bool>::const_iterator() : tool->second.find(*key);
    const bool known = tool != strings.end() && kind != tool->second.end();
    if (known && kind->second) {
      arguments[*key] = std::string(value);
      continue;
    }
    Json parsed = Json::parse(value.begin(), value.end(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() && known) parsed = PythonLiteral(value);
    arguments[*key] = parsed.is_discarded() ? Json(std::string(value)) : std::move(parsed);
  }
  if (!Consume(body, "</function>") || !absl::StripAsciiWhitespace(body).empty()) return std::nullopt;
  return ToolCall{.id = "", .name = *name, .arguments = PyJsonDumps(arguments)};
}

}  // namespace cpubrrr
