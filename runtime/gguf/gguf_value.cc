// Names, sizes and integer conversions of GGUF metadata values.
#include "runtime/gguf/gguf_value.h"

#include <bit>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cpubrrr {
namespace {

static_assert(std::endian::native == std::endian::little,
              "GGUF is read in place; big-endian hosts are not supported");

// Returns the signed value of an integer of `type` stored at `p` (u64 values above
// INT64_MAX wrap; callers check `IsU64AboveI64Max` first).
int64_t LoadSigned(GgufValueType type, const uint8_t* p) {
  switch (type) {
    case GgufValueType::kU8: return *p;
    case GgufValueType::kI8: return static_cast<int8_t>(*p);
    case GgufValueType::kU16: {
      uint16_t x;
      std::memcpy(&x, p, 2);
      return x;
    }
    case GgufValueType::kI16: {
      int16_t x;
      std::memcpy(&x, p, 2);
      return x;
    }
    case GgufValueType::kU32: {
      uint32_t x;
      std::memcpy(&x, p, 4);
      return x;
    }
    case GgufValueType::kI32: {
      int32_t x;
      std::memcpy(&x, p, 4);
      return x;
    }
    case GgufValueType::kU64: {
      uint64_t x;
      std::memcpy(&x, p, 8);
      return static_cast<int64_t>(x);
    }
    case GgufValueType::kI64: {
      int64_t x;
      std::memcpy(&x, p, 8);
      return x;
    }
    default: return 0;
  }
}

// Returns true when a u64 at `p` exceeds INT64_MAX.
bool IsU64AboveI64Max(GgufValueType type, const uint8_t* p) {
  if (type != GgufValueType::kU64) return false;
  uint64_t x;
  std::memcpy(&x, p, 8);
  return x > static_cast<uint64_t>(INT64_MAX);
}

absl::Status NotInteger(GgufValueType type) {
  return absl::InvalidArgumentError(
      absl::StrCat("value has type ", GgufValueTypeName(type), ", not an integer type"));
}

}  // namespace

bool IsValidGgufValueType(uint32_t id) { return id <= 12; }

const char* GgufValueTypeName(GgufValueType type) {
  switch (type) {
    case GgufValueType::kU8: return "u8";
    case GgufValueType::kI8: return "i8";
    case GgufValueType::kU16: return "u16";
    case GgufValueType::kI16: return "i16";
    case GgufValueType::kU32: return "u32";
    case GgufValueType::kI32: return "i32";
    case GgufValueType::kF32: return "f32";
    case GgufValueType::kBool: return "bool";
    case GgufValueType::kString: return "string";
    case GgufValueType::kArray: return "array";
    case GgufValueType::kU64: return "u64";
    case GgufValueType::kI64: return "i64";
    case GgufValueType::kF64: return "f64";
  }
  return "unknown";
}

size_t GgufFixedSize(GgufValueType type) {
  switch (type) {
    case GgufValueType::kU8:
    case GgufValueType::kI8:
    case GgufValueType::kBool: return 1;
    case GgufValueType::kU16:
    case GgufValueType::kI16: return 2;
    case GgufValueType::kU32:
    case GgufValueType::kI32:
    case GgufValueType::kF32: return 4;
    case GgufValueType::kU64:
    case GgufValueType::kI64:
    case GgufValueType::kF64: return 8;
    case GgufValueType::kString:
    case GgufValueType::kArray: return 0;
  }
  return 0;
}

bool IsGgufInteger(GgufValueType type) {
  switch (type) {
    case GgufValueType::kU8:
    case GgufValueType::kI8:
    case GgufValueType::kU16:
    case GgufValueType::kI16:
    case GgufValueType::kU32:
    case GgufValueType::kI32:
    case GgufValueType::kU64:
    case GgufValueType::kI64: return true;
    default: return false;
  }
}

absl::StatusOr<int64_t> ScalarAsI64(const GgufValue& v) {
  if (!IsGgufInteger(v.type)) return NotInteger(v.type);
  if (IsU64AboveI64Max(v.type, v.raw)) {
    return absl::OutOfRangeError(absl::StrCat("u64 value ", ScalarBits(v), " does not fit in i64"));
  }
  return LoadSigned(v.type, v.raw);
}

absl::StatusOr<uint64_t> ScalarAsU64(const GgufValue& v) {
  if (!IsGgufInteger(v.type)) return NotInteger(v.type);
  if (v.type == GgufValueType::kU64) return ScalarBits(v);
  const int64_t x = LoadSigned(v.type, v.raw);
  if (x < 0) {
    return absl::OutOfRangeError(absl::StrCat("negative value ", x, " is not unsigned"));
  }
  return static_cast<uint64_t>(x);
}

absl::StatusOr<int64_t> ArrayElementAsI64(const GgufValue& v, uint64_t i) {
  if (!IsGgufInteger(v.elem_type)) return NotInteger(v.elem_type);
  const uint8_t* p = v.raw + i * GgufFixedSize(v.elem_type);
  if (IsU64AboveI64Max(v.elem_type, p)) {
    return absl::OutOfRangeError(absl::StrCat("u64 element ", i, " does not fit in i64"));
  }
  return LoadSigned(v.elem_type, p);
}

uint64_t ScalarBits(const GgufValue& v) {
  uint64_t bits = 0;
  std::memcpy(&bits, v.raw, GgufFixedSize(v.type));
  return bits;
}

}  // namespace cpubrrr
