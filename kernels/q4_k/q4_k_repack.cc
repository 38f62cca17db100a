// The portable Q4_K repack (kernels/q4_k/q4_k_repacked.h) and its read-back.
#include <cstddef>
#include <cstring>

#include "kernels/q4_k/q4_k_repacked.h"

namespace cpubrrr {
namespace {

using Shape = Q4KRepackedShape;

constexpr size_t kHeaderBytes = offsetof(BlockQ4K, qs);  // d, dmin, scales
constexpr size_t kQuantBytes = sizeof(BlockQ4K::qs);

// Returns where row rr's header (quants: `quants`) of unit b sits in a group.
size_t PartOffset(size_t b, size_t rr, bool quants) {
  return Shape::QuantOffset(b) + (quants ? Q4KRepackedQuantsOffset(rr) : Q4KRepackedHeaderOffset(rr));
}

}  // namespace

void RepackQ4K(const BlockQ4K* w, size_t row_stride, size_t rows, size_t n_blocks, uint8_t* out) {
  const Shape shape{rows, n_blocks};
  std::memset(out, 0, shape.Bytes());
  for (size_t g = 0; g < shape.Groups(); ++g) {
    uint8_t* group = out + g * shape.GroupBytes();
    for (size_t rr = 0; rr < kRepackedRows && g * kRepackedRows + rr < rows; ++rr) {
      const BlockQ4K* row = w + (g * kRepackedRows + rr) * row_stride;
      for (size_t b = 0; b < n_blocks; ++b) {
        const uint8_t* block = reinterpret_cast<const uint8_t*>(&row[b]);
        std::memcpy(group + PartOffset(b, rr, false), block, kHeaderBytes);
        std::memcpy(group + PartOffset(b, rr, true), block + kHeaderBytes, kQuantBytes);
      }
    }
  }
}

BlockQ4K RepackedQ4KBlock(const uint8_t* packed, const Q4KRepackedShape& shape, size_t r, size_t b) {
  const uint8_t* group = packed + r / kRepackedRows * shape.GroupBytes();
  BlockQ4K block;
  uint8_t* bytes = reinterpret_cast<uint8_t*>(&block);
  std::memcpy(bytes, group + PartOffset(b, r % kRepackedRows, false), kHeaderBytes);
  std::memcpy(bytes + kHeaderBytes, group + PartOffset(b, r % kRepackedRows, true), kQuantBytes);
  return block;
}

}  // namespace cpubrrr
