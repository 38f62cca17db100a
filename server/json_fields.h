// Typed reads of optional request fields: a wrong type or an out-of-range value fails
// with a message naming the field; null counts as absent.
#ifndef CPUBRRR_SERVER_JSON_FIELDS_H_
#define CPUBRRR_SERVER_JSON_FIELDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"

namespace cpubrrr::server {

using Json = nlohmann::ordered_json;

// Serializes compactly; bytes that are not UTF-8 (a token piece can end inside a
// character) become U+FFFD instead of throwing.
inline std::string Dump(const Json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Returns object[key] when it is a string, else "" (never throws).
inline std::string StringField(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

class JsonFields {
 public:
  // `where` prefixes field names in messages ("options." for Ollama's options).
  explicit JsonFields(const Json& object, std::string where = "") : object_(object), where_(std::move(where)) {}

  bool Has(const char* key) const;
  absl::Status Float(const char* key, float& out, double min, double max) const;
  absl::Status Int(const char* key, int64_t& out, int64_t min, int64_t max) const;
  absl::Status Bool(const char* key, bool& out) const;
  absl::Status String(const char* key, std::string& out) const;
  // A string or an array of strings (OpenAI's and Ollama's "stop").
  absl::Status Strings(const char* key, std::vector<std::string>& out) const;

  // Returns the error for `key`: "'<where><key>' must be <expected>".
  absl::Status Bad(const char* key, const std::string& expected) const;

 private:
  const Json* Find(const char* key) const;

  const Json& object_;
  std::string where_;
};

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_JSON_FIELDS_H_
