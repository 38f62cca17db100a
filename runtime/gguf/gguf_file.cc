// Opening GGUF files and typed metadata lookups.
#include "runtime/gguf/gguf_file.h"

#include <cstring>
#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {
namespace {

absl::Status KeyError(std::string_view key, const absl::Status& cause) {
  return absl::Status(cause.code(), Cat("key '", key, "': ", cause.message()));
}

absl::Status WrongType(std::string_view key, const GgufValue& v, std::string_view wanted) {
  std::string have = GgufValueTypeName(v.type);
  if (v.type == GgufValueType::kArray) {
    have = Cat("array of ", GgufValueTypeName(v.elem_type));
  }
  return absl::InvalidArgumentError(Cat("key '", key, "' has type ", have, ", expected ", wanted));
}

// Returns `x` as T, or OutOfRange naming `key`.
template <typename T, typename S>
absl::StatusOr<T> Narrow(std::string_view key, S x) {
  if (!std::in_range<T>(x)) {
    return absl::OutOfRangeError(
        Cat("key '", key, "': value ", x, " does not fit the requested type"));
  }
  return static_cast<T>(x);
}

}  // namespace

const GgufValue* GgufFile::Find(std::string_view key) const {
  const auto it = contents_.key_index.find(key);
  return it == contents_.key_index.end() ? nullptr : &contents_.kvs[it->second].value;
}

const GgufTensor* GgufFile::FindTensor(std::string_view name) const {
  const auto it = contents_.tensor_index.find(name);
  return it == contents_.tensor_index.end() ? nullptr : &contents_.tensors[it->second];
}

absl::StatusOr<GgufTensor> GgufFile::GetTensor(std::string_view name) const {
  const GgufTensor* t = FindTensor(name);
  if (t == nullptr) return absl::NotFoundError(Cat("tensor '", name, "' not found"));
  return *t;
}

absl::StatusOr<const GgufValue*> GgufFile::FindTyped(std::string_view key,
                                                     GgufValueType type) const {
  const GgufValue* v = Find(key);
  if (v == nullptr) return absl::NotFoundError(Cat("key '", key, "' not found"));
  if (v->type != type) return WrongType(key, *v, GgufValueTypeName(type));
  return v;
}

absl::StatusOr<const GgufValue*> GgufFile::FindArray(std::string_view key,
                                                     GgufValueType elem_type) const {
  const GgufValue* v = Find(key);
  if (v == nullptr) return absl::NotFoundError(Cat("key '", key, "' not found"));
  const bool integer = IsGgufInteger(elem_type);
  if (v->type != GgufValueType::kArray ||
      (integer ? !IsGgufInteger(v->elem_type) : v->elem_type != elem_type)) {
    return WrongType(
        key, *v, integer ? "array of integers" : Cat("array of ", GgufValueTypeName(elem_type)));
  }
  return v;
}

template <typename T>
absl::StatusOr<T> GgufFile::GetInteger(std::string_view key) const {
  const GgufValue* v = Find(key);
  if (v == nullptr) return absl::NotFoundError(Cat("key '", key, "' not found"));
  if (std::numeric_limits<T>::is_signed) {
    absl::StatusOr<int64_t> x = ScalarAsI64(*v);
    if (!x.ok()) return KeyError(key, x.status());
    return Narrow<T>(key, *x);
  }
  absl::StatusOr<uint64_t> x = ScalarAsU64(*v);
  if (!x.ok()) return KeyError(key, x.status());
  return Narrow<T>(key, *x);
}

template <typename T>
absl::StatusOr<std::vector<T>> GgufFile::GetIntegerArray(std::string_view key) const {
  absl::StatusOr<const GgufValue*> v = FindArray(key, GgufValueType::kI64);
  if (!v.ok()) return v.status();
  std::vector<T> out((*v)->count);
  for (uint64_t i = 0; i < (*v)->count; ++i) {
    absl::StatusOr<int64_t> x = ArrayElementAsI64(**v, i);
    if (!x.ok()) return KeyError(key, x.status());
    absl::StatusOr<T> n = Narrow<T>(key, *x);
    if (!n.ok()) return n.status();
    out[i] = *n;
  }
  return out;
}

absl::StatusOr<uint8_t> GgufFile::GetU8(std::string_view key) const {
  return GetInteger<uint8_t>(key);
}
absl::StatusOr<uint16_t> GgufFile::GetU16(std::string_view key) const {
  return GetInteger<uint16_t>(key);
}
absl::StatusOr<uint32_t> GgufFile::GetU32(std::string_view key) const {
  return GetInteger<uint32_t>(key);
}
absl::StatusOr<uint64_t> GgufFile::GetU64(std::string_view key) const {
  return GetInteger<uint64_t>(key);
}
absl::StatusOr<int8_t> GgufFile::GetI8(std::string_view key) const {
  return GetInteger<int8_t>(key);
}
absl::StatusOr<int16_t> GgufFile::GetI16(std::string_view key) const {
  return GetInteger<int16_t>(key);
}
absl::StatusOr<int32_t> GgufFile::GetI32(std::string_view key) const {
  return GetInteger<int32_t>(key);
}
absl::StatusOr<int64_t> GgufFile::GetI64(std::string_view key) const {
  return GetInteger<int64_t>(key);
}

absl::StatusOr<float> GgufFile::GetF32(std::string_view key) const {
  absl::StatusOr<const GgufValue*> v = FindTyped(key, GgufValueType::kF32);
  if (!v.ok()) return v.status();
  float x;
  std::memcpy(&x, (*v)->raw, sizeof(x));
  return x;
}

absl::StatusOr<double> GgufFile::GetF64(std::string_view key) const {
  const GgufValue* v = Find(key);
  if (v != nullptr && v->type == GgufValueType::kF32) return static_cast<double>(*GetF32(key));
  absl::StatusOr<const GgufValue*> d = FindTyped(key, GgufValueType::kF64);
  if (!d.ok()) return d.status();
  double x;
  std::memcpy(&x, (*d)->raw, sizeof(x));
  return x;
}

absl::StatusOr<bool> GgufFile::GetBool(std::string_view key) const {
  absl::StatusOr<const GgufValue*> v = FindTyped(key, GgufValueType::kBool);
  if (!v.ok()) return v.status();
  return *(*v)->raw != 0;
}

absl::StatusOr<std::string_view> GgufFile::GetString(std::string_view key) const {
  absl::StatusOr<const GgufValue*> v = FindTyped(key, GgufValueType::kString);
  if (!v.ok()) return v.status();
  return (*v)->str;
}

absl::StatusOr<absl::Span<const std::string_view>> GgufFile::GetStringArray(
    std::string_view key) const {
  absl::StatusOr<const GgufValue*> v = FindArray(key, GgufValueType::kString);
  if (!v.ok()) return v.status();
  return absl::Span<const std::string_view>((*v)->strings);
}

absl::StatusOr<std::vector<int32_t>> GgufFile::GetArrayI32(std::string_view key) const {
  return GetIntegerArray<int32_t>(key);
}

absl::StatusOr<std::vector<uint32_t>> GgufFile::GetArrayU32(std::string_view key) const {
  return GetIntegerArray<uint32_t>(key);
}

absl::StatusOr<std::vector<int64_t>> GgufFile::GetArrayI64(std::string_view key) const {
  return GetIntegerArray<int64_t>(key);
}

absl::StatusOr<std::vector<float>> GgufFile::GetArrayF32(std::string_view key) const {
  absl::StatusOr<const GgufValue*> v = FindArray(key, GgufValueType::kF32);
  if (!v.ok()) return v.status();
  std::vector<float> out((*v)->count);
  if (!out.empty()) std::memcpy(out.data(), (*v)->raw, out.size() * sizeof(float));
  return out;
}

absl::StatusOr<GgufFile> OpenGguf(const std::string& path) {
  absl::StatusOr<std::unique_ptr<MappedFile>> mapping = MappedFile::Open(path);
  if (!mapping.ok()) return mapping.status();
  absl::StatusOr<GgufContents> contents = ParseGguf((*mapping)->bytes());
  if (!contents.ok()) {
    return absl::Status(contents.status().code(), Cat(path, ": ", contents.status().message()));
  }
  return GgufFile(std::move(*mapping), std::move(*contents));
}

absl::StatusOr<GgufFile> OpenGgufFromMemory(absl::Span<const uint8_t> bytes) {
  absl::StatusOr<GgufContents> contents = ParseGguf(bytes);
  if (!contents.ok()) return contents.status();
  return GgufFile(nullptr, std::move(*contents));
}

}  // namespace cpubrrr
