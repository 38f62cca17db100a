// Jinja-like views of JSON values: truthiness and Python str(), as chat templates see them.
#ifndef CPUBRRR_RUNTIME_CHAT_JINJA_VALUES_H_
#define CPUBRRR_RUNTIME_CHAT_JINJA_VALUES_H_

#include <stdexcept>
#include <string>
#include <string_view>

#include "nlohmann/json.hpp"

namespace cpubrrr {

// Returns whether `v` is truthy in Jinja/Python: non-empty strings, arrays and objects,
// non-zero numbers, true. Null (and a missing key) is falsy.
bool JinjaTruthy(const nlohmann::ordered_json& v);

// Returns member `key` of object `v`, or null when `v` is not an object or lacks it.
const nlohmann::ordered_json& JinjaAttr(const nlohmann::ordered_json& v, std::string_view key);

// What a template raises where Jinja would stop with an error, such as a loop over a
// value that is not a list; the renderer's caller turns it into a refused request.
class JinjaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Returns `v` for a template's `for x in v` over a list; raises JinjaError naming `what`
// when `v` is anything else.
const nlohmann::ordered_json& JinjaList(const nlohmann::ordered_json& v, std::string_view what);

// Returns Python's str(v): strings as is, True/False/None, numbers as repr, lists and
// dicts as Python prints them (['a', 1], {'k': True}).
std::string JinjaStr(const nlohmann::ordered_json& v);

// Returns Jinja's `trim` of UTF-8 `text`: Python's str.strip(), which removes the
// whitespace str.isspace() knows (ASCII, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028,
// U+2029, U+202F, U+205F, U+3000) from both ends.
std::string JinjaTrim(std::string_view text);

// Returns the number of code points in UTF-8 `text` (Python's len()).
size_t CodePointCount(std::string_view text);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_JINJA_VALUES_H_
