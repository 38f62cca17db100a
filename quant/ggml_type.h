// GGML tensor type ids as GGUF files store them, with block geometry per type.
#ifndef CPUBRRR_QUANT_GGML_TYPE_H_
#define CPUBRRR_QUANT_GGML_TYPE_H_

#include <cstddef>
#include <cstdint>

namespace cpubrrr {

// Type ids are fixed by the GGUF format (ggml.h's enum ggml_type).
enum class GgmlType : uint32_t {
  kF32 = 0,
  kF16 = 1,
  kQ4_0 = 2,
  kQ4_1 = 3,
  kQ8_0 = 8,
  kQ8_1 = 9,
  kQ2_K = 10,
  kQ3_K = 11,
  kQ4_K = 12,
  kQ5_K = 13,
  kQ6_K = 14,
  kQ8_K = 15,
  kBF16 = 30,
  kMXFP4 = 39,
};

// Elements per block and bytes per block of one type; {0, 0} for ids this project
// cannot read.
struct TypeGeometry {
  uint32_t block_elems;
  uint32_t block_bytes;
};

// Returns the block geometry of `type`, or {0, 0} when the type is unsupported.
TypeGeometry GeometryOf(GgmlType type);

// Returns a short lower-case name ("mxfp4", "q4_K", ...) or "unknown".
const char* TypeName(GgmlType type);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_GGML_TYPE_H_
