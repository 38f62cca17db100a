// Jinja-like truthiness, attribute access and str() over JSON values.
#include "runtime/chat/jinja_values.h"

#include "runtime/chat/py_json.h"

namespace cpubrrr {

bool JinjaTruthy(const nlohmann::ordered_json& v) {
  switch (v.type()) {
    case nlohmann::ordered_json::value_t::null:
      return false;
    case nlohmann::ordered_json::value_t::boolean:
      return v.get<bool>();
    case nlohmann::ordered_json::value_t::string:
      return !v.get_ref<const std::string&>().empty();
    case nlohmann::ordered_json::value_t::array:
    case nlohmann::ordered_json::value_t::object:
      return !v.empty();
    case nlohmann::ordered_json::value_t::number_integer:
      return v.get<int64_t>() != 0;
    case nlohmann::ordered_json::value_t::number_unsigned:
      return v.get<uint64_t>() != 0;
    case nlohmann::ordered_json::value_t::number_float:
      return v.get<double>() != 0.0;
    default:
      return false;
  }
}

const nlohmann::ordered_json& JinjaAttr(const nlohmann::ordered_json& v, std::string_view key) {
  static const nlohmann::ordered_json kNull;
  if (!v.is_object()) return kNull;
  auto it = v.find(std::string(key));
  return it == v.end() ? kNull : *it;
}

namespace {

// Python's repr() of a str: single quotes unless the text holds ' and no ".
std::string PyStrRepr(const std::string& text) {
  const char quote = text.find('\'') != std::string::npos && text.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : text) {
    if (c == '\\' || c == quote) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + quote;
}

// Python's repr() of a value inside a container.
std::string PyRepr(const nlohmann::ordered_json& v) {
  if (v.is_string()) return PyStrRepr(v.get<std::string>());
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + PyRepr(v[i]);
    return out + "]";
  }
  if (v.is_object()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, value] : v.items()) {
      out += (first ? "" : ", ") + PyStrRepr(key) + ": " + PyRepr(value);
      first = false;
    }
    return out + "}";
  }
  return JinjaStr(v);
}

}  // namespace

std::string JinjaStr(const nlohmann::ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_null()) return "None";
  if (v.is_array() || v.is_object()) return PyRepr(v);
  return PyJsonDumps(v);
}

size_t CodePointCount(std::string_view text) {
  size_t n = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

}  // namespace cpubrrr
