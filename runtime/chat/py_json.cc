// Python-compatible JSON serialization for chat templates.
#include "runtime/chat/py_json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cpubrrr {
namespace {

void AppendQuoted(std::string_view text, std::string& out) {
  out += '"';
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

// Appends Python's repr of `x`: the shortest round-trip digits (std::to_chars, as
// Python's repr), fixed notation for decimal exponents -5 < e < 16, else "de+XX".
void AppendFloat(double x, std::string& out) {
  if (std::isnan(x)) {
    out += "NaN";
    return;
  }
  if (std::isinf(x)) {
    out += x < 0 ? "-Infinity" : "Infinity";
    return;
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::scientific);
  std::string sci(buf, ec == std::errc() ? end : buf);
  size_t e_pos = sci.find('e');
  if (e_pos == std::string::npos) {
    out += sci;
    return;
  }
  int exp10 = std::atoi(sci.c_str() + e_pos + 1);
  std::string sign = sci[0] == '-' ? "-" : "";
  std::string digits;
  for (char c : sci.substr(0, e_pos)) {
    if (c >= '0' && c <= '9') digits += c;
  }
  if (exp10 < -4 || exp10 >= 16) {
    char exp_buf[8];
    std::snprintf(exp_buf, sizeof(exp_buf), "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
    out += sign + digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exp_buf;
  } else if (exp10 >= 0) {
    size_t int_len = static_cast<size_t>(exp10) + 1;
    if (digits.size() < int_len) digits.append(int_len - digits.size(), '0');
    std::string frac = digits.substr(int_len);
    out += sign + digits.substr(0, int_len) + "." + (frac.empty() ? "0" : frac);
  } else {
    out += sign + "0." + std::string(static_cast<size_t>(-exp10 - 1), '0') + digits;
  }
}

void Append(const nlohmann::ordered_json& v, std::string& out) {
  switch (v.type()) {
    case nlohmann::ordered_json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ", ";
        first = false;
        AppendQuoted(it.key(), out);
        out += ": ";
        Append(it.value(), out);
      }
      out += '}';
      break;
    }
    case nlohmann::ordered_json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ", ";
        first = false;
        Append(e, out);
      }
      out += ']';
      break;
    }
    case nlohmann::ordered_json::value_t::string:
      AppendQuoted(v.get_ref<const std::string&>(), out);
      break;
    case nlohmann::ordered_json::value_t::number_float:
      AppendFloat(v.get<double>(), out);
      break;
    default:  // null, booleans, integers
      out += v.dump();
  }
}

}  // namespace

std::string PyJsonDumps(const nlohmann::ordered_json& value) {
  std::string out;
  Append(value, out);
  return out;
}

std::string PyJsonQuote(std::string_view text) {
  std::string out;
  AppendQuoted(text, out);
  return out;
}

}  // namespace cpubrrr
