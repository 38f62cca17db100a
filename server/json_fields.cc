// Typed optional fields of JSON request objects.
#include "server/json_fields.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace cpubrrr::server {

const Json* JsonFields::Find(const char* key) const {
  auto it = object_.find(key);
  return it == object_.end() || it->is_null() ? nullptr : &*it;
}

bool JsonFields::Has(const char* key) const { return Find(key) != nullptr; }

absl::Status JsonFields::Bad(const char* key, const std::string& expected) const {
  return absl::InvalidArgumentError(absl::StrCat("'", where_, key, "' must be ", expected));
}

absl::Status JsonFields::Float(const char* key, float& out, double min, double max) const {
  const Json* v = Find(key);
  if (v == nullptr) return absl::OkStatus();
  if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < min || v->get<double>() > max) {
    return Bad(key, absl::StrCat("a number in [", min, ", ", max, "]"));
  }
  out = v->get<float>();
  return absl::OkStatus();
}

absl::Status JsonFields::Int(const char* key, int64_t& out, int64_t min, int64_t max) const {
  const Json* v = Find(key);
  if (v == nullptr) return absl::OkStatus();
  // Whole floats (3.0) count: JavaScript clients cannot tell them apart.
  if (!v->is_number() || (v->is_number_float() && v->get<double>() != std::floor(v->get<double>())) ||
      v->get<double>() < static_cast<double>(min) || v->get<double>() > static_cast<double>(max)) {
    return Bad(key, absl::StrCat("an integer in [", min, ", ", max, "]"));
  }
  out = v->is_number_float() ? static_cast<int64_t>(v->get<double>()) : v->get<int64_t>();
  return absl::OkStatus();
}

absl::Status JsonFields::Bool(const char* key, bool& out) const {
  const Json* v = Find(key);
  if (v == nullptr) return absl::OkStatus();
  if (!v->is_boolean()) return Bad(key, "a boolean");
  out = v->get<bool>();
  return absl::OkStatus();
}

absl::Status JsonFields::String(const char* key, std::string& out) const {
  const Json* v = Find(key);
  if (v == nullptr) return absl::OkStatus();
  if (!v->is_string()) return Bad(key, "a string");
  out = v->get<std::string>();
  return absl::OkStatus();
}

absl::Status JsonFields::Strings(const char* key, std::vector<std::string>& out) const {
  const Json* v = Find(key);
  if (v == nullptr) return absl::OkStatus();
  out.clear();
  if (v->is_string()) {
    out.push_back(v->get<std::string>());
    return absl::OkStatus();
  }
  if (!v->is_array()) return Bad(key, "a string or an array of strings");
  for (const Json& s : *v) {
    if (!s.is_string()) return Bad(key, "a string or an array of strings");
    out.push_back(s.get<std::string>());
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr::server
