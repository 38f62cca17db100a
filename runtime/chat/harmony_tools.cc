// TypeScript-like tool definitions for the gpt-oss developer message, mirroring the
// official template's macros render_typescript_type and render_tool_namespace.
#include "runtime/chat/harmony_tools.h"

#include <algorithm>

#include "runtime/chat/jinja_values.h"
#include "runtime/chat/py_json.h"

namespace cpubrrr {
namespace {

using Json = nlohmann::ordered_json;

bool IsType(const Json& spec, const char* name) {
  const Json& t = JinjaAttr(spec, "type");
  return t.is_string() && t.get_ref<const std::string&>() == name;
}

bool Contains(const Json& list, const std::string& name) {
  if (!list.is_array()) return false;
  return std::any_of(list.begin(), list.end(),
                     [&](const Json& e) { return e.is_string() && e.get_ref<const std::string&>() == name; });
}

std::string NullableSuffix(const Json& spec) {
  return JinjaTruthy(JinjaAttr(spec, "nullable")) ? " | null" : "";
}

}  // namespace

std::string HarmonyTypeScriptType(const Json& spec) {
  const Json& type = JinjaAttr(spec, "type");
  if (IsType(spec, "array")) {
    const Json& items = JinjaAttr(spec, "items");
    if (!JinjaTruthy(items)) return "any[]" + NullableSuffix(spec);
    std::string out;
    if (IsType(items, "string")) {
      out = "string[]";
    } else if (IsType(items, "number") || IsType(items, "integer")) {
      out = "number[]";
    } else if (IsType(items, "boolean")) {
      out = "boolean[]";
    } else {
      std::string inner = HarmonyTypeScriptType(items);
      // The template gives up on long or object-union element types.
      out = (inner == "object | object" || CodePointCount(inner) > 50) ? "any[]" : inner + "[]";
    }
    return out + NullableSuffix(spec);
  }
  if (type.is_array() && !type.empty()) {
    std::string out;
    for (size_t i = 0; i < type.size(); ++i) {
      if (i) out += " | ";
      out += JinjaStr(type[i]);
    }
    return out;
  }
  if (JinjaTruthy(JinjaAttr(spec, "oneOf"))) {
    const Json& one_of = JinjaList(JinjaAttr(spec, "oneOf"), "a tool schema's oneOf");
    // The template's object-variant check sets a variable inside a for loop, which Jinja
    // scopes to the loop, so it never fires: every variant is printed.
    std::string out;
    for (size_t i = 0; i < one_of.size(); ++i) {
      const Json& variant = one_of[i];
      out += HarmonyTypeScriptType(variant);
      if (JinjaTruthy(JinjaAttr(variant, "description"))) {
        out += "// " + JinjaStr(variant["description"]);
      }
      if (variant.is_object() && variant.contains("default")) {
        out += std::string(20, ' ') + "// default: " + PyJsonDumps(variant["default"]);
      }
      if (i + 1 < one_of.size()) out += " | \n";
    }
    return out;
  }
  if (IsType(spec, "string")) {
    if (JinjaTruthy(JinjaAttr(spec, "enum"))) {
      const Json& values = JinjaList(JinjaAttr(spec, "enum"), "a tool schema's enum");
      std::string out = "\"";
      for (size_t i = 0; i < values.size(); ++i) {
        if (i) out += "\" | \"";
        out += JinjaStr(values[i]);
      }
      return out + "\"";
    }
    return "string" + NullableSuffix(spec);
  }
  if (IsType(spec, "number") || IsType(spec, "integer")) return "number";
  if (IsType(spec, "boolean")) return "boolean";
  if (IsType(spec, "object")) {
    const Json& props = JinjaAttr(spec, "properties");
    if (!JinjaTruthy(props) || !props.is_object()) return "object";
    const Json& required = JinjaAttr(spec, "required");
    std::string out = "{\n";
    size_t i = 0;
    for (auto it = props.begin(); it != props.end(); ++it, ++i) {
      out += it.key();
      if (!Contains(required, it.key())) out += "?";
      // The template's `{{ render_typescript_type(...) }}` sits on its own line without a
      // whitespace-stripping dash, so the newline and 16 spaces before it are printed.
      out += ": \n" + std::string(16, ' ') + HarmonyTypeScriptType(it.value());
      if (i + 1 < props.size()) out += ", ";
    }
    return out + "}";
  }
  return "any";
}

std::string HarmonyToolNamespace(const std::vector<Json>& tools) {
  std::string out = "## functions\n\nnamespace functions {\n\n";
  for (const Json& entry : tools) {
    const Json& fn = entry.contains("function") ? entry["function"] : entry;
    out += "// " + JinjaStr(JinjaAttr(fn, "description")) + "\n";
    out += "type " + JinjaStr(JinjaAttr(fn, "name")) + " = ";
    const Json& params = JinjaAttr(fn, "parameters");
    const Json& props = JinjaAttr(params, "properties");
    if (!JinjaTruthy(params) || !JinjaTruthy(props) || !props.is_object()) {
      out += "() => any;\n\n";
      continue;
    }
    const Json& required = JinjaAttr(params, "required");
    out += "(_: {\n";
    for (auto it = props.begin(); it != props.end(); ++it) {
      const Json& p = it.value();
      if (JinjaTruthy(JinjaAttr(p, "description"))) {
        out += "// " + JinjaStr(p["description"]) + "\n";
      }
      out += it.key();
      if (!Contains(required, it.key())) out += "?";
      out += ": " + HarmonyTypeScriptType(p);
      if (p.is_object() && p.contains("default")) {
        if (JinjaTruthy(JinjaAttr(p, "enum"))) {
          out += ", // default: " + JinjaStr(p["default"]);
        } else if (JinjaTruthy(JinjaAttr(p, "oneOf"))) {
          out += "// default: " + JinjaStr(p["default"]);
        } else {
          out += ", // default: " + PyJsonDumps(p["default"]);
        }
      }
      out += ",\n";
    }
    out += "}) => any;\n\n";
  }
  return out + "} // namespace functions";
}

}  // namespace cpubrrr
