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

std::string JinjaStr(const nlohmann::ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_null()) return "None";
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
