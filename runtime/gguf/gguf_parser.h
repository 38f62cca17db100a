// Parses and validates the bytes of a GGUF v2/v3 file into views of its metadata and tensors.
#ifndef CPUBRRR_RUNTIME_GGUF_GGUF_PARSER_H_
#define CPUBRRR_RUNTIME_GGUF_GGUF_PARSER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "quant/ggml_type.h"
#include "runtime/gguf/gguf_value.h"

namespace cpubrrr {

// GGUF's alignment of tensor data when the file has no `general.alignment` key.
inline constexpr uint32_t kGgufDefaultAlignment = 32;

// One tensor of the file: a view of its bytes in the file, never a copy.
struct GgufTensor {
  std::string_view name;
  GgmlType type = GgmlType::kF32;
  uint32_t n_dims = 0;
  // Elements per dimension, ne[0] first (the contiguous one); entries >= n_dims are 1.
  std::array<int64_t, 4> dims = {1, 1, 1, 1};
  uint64_t offset = 0;  // from the start of the data section, a multiple of the alignment
  const uint8_t* data = nullptr;
  size_t bytes = 0;

  // Returns the product of the dimensions.
  uint64_t Elements() const;
};

// One metadata key and its value.
struct GgufKv {
  std::string_view key;
  GgufValue value;
};

// Everything ParseGguf learns from a file; every view points into the parsed bytes.
struct GgufContents {
  uint32_t version = 0;
  uint32_t alignment = kGgufDefaultAlignment;
  // File offset of the data section: the aligned end of the tensor infos, or their
  // unaligned end when the file has no tensors.
  uint64_t data_offset = 0;
  std::vector<GgufKv> kvs;                                     // file order
  std::vector<GgufTensor> tensors;                             // file order
  absl::flat_hash_map<std::string_view, size_t> key_index;     // key -> kvs index
  absl::flat_hash_map<std::string_view, size_t> tensor_index;  // name -> tensors index
};

// Parses a whole GGUF file held in `bytes`, checking every count, length, type id,
// dimension and offset against the format and the bytes present. Errors are
// InvalidArgument "malformed GGUF at byte offset N: <problem>".
// Precondition: `bytes` outlives the result (it holds views into them).
absl::StatusOr<GgufContents> ParseGguf(absl::Span<const uint8_t> bytes);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_GGUF_PARSER_H_
