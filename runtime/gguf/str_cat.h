// Cat: absl::StrCat that also takes std::string_view (Debian's Abseil has its own string_view).
#ifndef CPUBRRR_RUNTIME_GGUF_STR_CAT_H_
#define CPUBRRR_RUNTIME_GGUF_STR_CAT_H_

#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace cpubrrr {

// Returns `v` in a form absl::AlphaNum accepts.
template <typename T>
decltype(auto) ToAlphaNumArg(const T& v) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    return absl::string_view(v.data(), v.size());
  } else {
    return (v);
  }
}

// Returns the concatenation of `v...` (numbers, strings, std::string_view, ...).
template <typename... T>
std::string Cat(const T&... v) {
  return absl::StrCat(ToAlphaNumArg(v)...);
}

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_STR_CAT_H_
