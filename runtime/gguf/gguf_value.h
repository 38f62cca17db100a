// GGUF metadata value types and a read-only view of one metadata value.
#ifndef CPUBRRR_RUNTIME_GGUF_GGUF_VALUE_H_
#define CPUBRRR_RUNTIME_GGUF_GGUF_VALUE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace cpubrrr {

// Metadata value type ids, fixed by the GGUF format (gguf.h's enum gguf_type).
enum class GgufValueType : uint32_t {
  kU8 = 0,
  kI8 = 1,
  kU16 = 2,
  kI16 = 3,
  kU32 = 4,
  kI32 = 5,
  kF32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kU64 = 10,
  kI64 = 11,
  kF64 = 12,
};

// Returns true when `id` names one of the thirteen GGUF value types.
bool IsValidGgufValueType(uint32_t id);

// Returns the short name of `type` ("u32", "string", "array", ...) or "unknown".
const char* GgufValueTypeName(GgufValueType type);

// Returns the encoded size in bytes of a fixed-size type, or 0 for string and array.
size_t GgufFixedSize(GgufValueType type);

// Returns true for the eight integer types (bool is not an integer).
bool IsGgufInteger(GgufValueType type);

// One metadata value. Views point into the file's bytes and live as long as the file.
// Scalars: `raw` points at the little-endian value bytes (possibly unaligned).
// Strings: `str`. Arrays: `elem_type` and `count`; fixed-size elements are the
// `count * GgufFixedSize(elem_type)` bytes at `raw`; string elements are in
// `strings`; nested array elements are in `items`.
struct GgufValue {
  GgufValueType type = GgufValueType::kU8;
  const uint8_t* raw = nullptr;
  std::string_view str;
  GgufValueType elem_type = GgufValueType::kU8;
  uint64_t count = 0;
  std::vector<std::string_view> strings;
  std::vector<GgufValue> items;
};

// Returns the integer scalar `v` as int64, or an error when `v` is not an integer or
// does not fit (a u64 above INT64_MAX).
absl::StatusOr<int64_t> ScalarAsI64(const GgufValue& v);

// Returns the integer scalar `v` as uint64, or an error when `v` is not an integer or
// is negative.
absl::StatusOr<uint64_t> ScalarAsU64(const GgufValue& v);

// Returns element `i` (< v.count) of an integer array as int64, or an error when
// the element type is not an integer or the value does not fit.
absl::StatusOr<int64_t> ArrayElementAsI64(const GgufValue& v, uint64_t i);

// Returns the raw bits of a fixed-size scalar (zero-extended little-endian value).
// Precondition: GgufFixedSize(v.type) > 0 and v.raw is valid.
uint64_t ScalarBits(const GgufValue& v);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_GGUF_VALUE_H_
