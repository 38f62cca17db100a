// Test helper: a GGUF file described field by field, so tests can encode invalid values.
#ifndef CPUBRRR_RUNTIME_GGUF_RAW_GGUF_H_
#define CPUBRRR_RUNTIME_GGUF_RAW_GGUF_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cpubrrr {

// Returns the encoding of a GGUF string: u64 length, then the bytes.
std::string RawString(std::string_view s);
// Returns `n` little-endian bytes of `v` (n = 1, 2, 4 or 8).
std::string RawInt(uint64_t v, int n);
// Return a typed value as a key-value pair stores it: u32 type id, then the value.
std::string RawU32Value(uint32_t v);
std::string RawStringValue(std::string_view s);
// Returns an array value: u32 type 9, u32 element type, u64 count, then `elements`.
std::string RawArrayValue(uint32_t elem_type, uint64_t count, std::string_view elements);

// One tensor info; `n_dims` defaults to dims.size().
struct RawTensorInfo {
  std::string name;
  std::vector<int64_t> dims;
  uint32_t type = 0;
  uint64_t offset = 0;
  std::optional<uint32_t> n_dims;
};

// Where Encode put each field, for checking the offsets errors report.
struct RawOffsets {
  std::vector<uint64_t> key;            // start of each key's length field
  std::vector<uint64_t> value;          // start of each value's type field
  std::vector<uint64_t> tensor;         // start of each tensor name's length field
  std::vector<uint64_t> tensor_dims;    // each tensor's n_dims field
  std::vector<uint64_t> tensor_type;    // each tensor's type field
  std::vector<uint64_t> tensor_offset;  // each tensor's offset field
  uint64_t data = 0;                    // start of the data section
};

// A whole file. Counts default to the vector sizes; the data section is padded to
// `pad_to` after the tensor infos when there are tensors.
struct RawGguf {
  std::string magic = "GGUF";
  uint32_t version = 3;
  std::optional<uint64_t> n_tensors;
  std::optional<uint64_t> n_kv;
  std::vector<std::pair<std::string, std::string>> kvs;  // key, RawXxxValue(...)
  std::vector<RawTensorInfo> tensors;
  uint64_t pad_to = 32;
  std::string data;

  // Returns the file's bytes and, if `offsets` is non-null, where fields went.
  std::string Encode(RawOffsets* offsets = nullptr) const;
};

// Returns a small valid file: metadata of several types (including string, nested
// and bool arrays) and two tensors, f32 [8, 2] at 0 and q8_0 [32, 2] at 64.
RawGguf ValidRawGguf();

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_RAW_GGUF_H_
