// Serializes JSON exactly as Python's json.dumps(x, ensure_ascii=False) does, which is
// what the Hugging Face `tojson` filter in chat templates prints.
#ifndef CPUBRRR_RUNTIME_CHAT_PY_JSON_H_
#define CPUBRRR_RUNTIME_CHAT_PY_JSON_H_

#include <string>
#include <string_view>

#include "nlohmann/json.hpp"

namespace cpubrrr {

// Returns `value` as json.dumps prints it: ", " and ": " separators, keys in stored
// order, non-ASCII kept, control characters escaped as \uXXXX (lowercase hex).
std::string PyJsonDumps(const nlohmann::ordered_json& value);

// Returns the JSON string literal of `text` (json.dumps of a str). Invalid UTF-8 is
// copied through unchanged.
std::string PyJsonQuote(std::string_view text);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_PY_JSON_H_
