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

const nlohmann::ordered_json& JinjaList(const nlohmann::ordered_json& v, std::string_view what) {
  if (!v.is_array()) throw JinjaError(std::string(what) + " must be a list, not " + v.type_name());
  return v;
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

namespace {

bool PySpace(uint32_t c) {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

// Decodes the well-formed UTF-8 sequence of `len` bytes at `p` (lead byte first), or
// returns 0xFFFFFFFF when it is not one.
uint32_t Decode(const unsigned char* p, size_t len) {
  if (len == 1) return p[0] < 0x80 ? p[0] : 0xFFFFFFFF;
  const unsigned char lead = p[0];
  const unsigned char mask = len == 2 ? 0xE0 : len == 3 ? 0xF0 : 0xF8;
  const unsigned char want = len == 2 ? 0xC0 : len == 3 ? 0xE0 : 0xF0;
  if ((lead & mask) != want) return 0xFFFFFFFF;
  uint32_t c = lead & (0x7F >> len);
  for (size_t i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0xFFFFFFFF;
    c = (c << 6) | (p[i] & 0x3F);
  }
  return c;
}

// The byte length of the whitespace code point starting at `i`, or 0.
size_t SpaceAt(std::string_view t, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(t.data()) + i;
  const size_t len = p[0] < 0x80 ? 1 : p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : 2;
  if (i + len > t.size()) return 0;
  return PySpace(Decode(p, len)) ? len : 0;
}

// The byte length of the whitespace code point ending at `end`, or 0.
size_t SpaceBefore(std::string_view t, size_t end) {
  size_t start = end;
  while (start > 0 && end - start < 4) {
    --start;
    if ((static_cast<unsigned char>(t[start]) & 0xC0) != 0x80) break;
  }
  return start < end && SpaceAt(t, start) == end - start ? end - start : 0;
}

}  // namespace

std::string JinjaTrim(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end) {
    const size_t n = SpaceAt(text.substr(0, end), begin);
    if (n == 0) break;
    begin += n;
  }
  while (end > begin) {
    const size_t n = SpaceBefore(text.substr(0, end), end);
    if (n == 0) break;
    end -= n;
  }
  return std::string(text.substr(begin, end - begin));
}

size_t CodePointCount(std::string_view text) {
  size_t n = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

}  // namespace cpubrrr
