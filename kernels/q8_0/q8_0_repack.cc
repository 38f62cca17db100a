// The portable Q8_0 repack (kernels/q8_0/q8_0_repacked.h) and its scalar read-back.
#include <cstring>

#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

using Shape = Q8_0RepackedShape;

// The byte offset, from its group's start, of quant j of block b of row r of a group.
size_t QuantByte(size_t r, size_t b, int j) {
  return Shape::QuantOffset(b) + 64 * static_cast<size_t>(j / 4) + 4 * r + static_cast<size_t>(j % 4);
}

size_t ScaleByte(size_t r, size_t b) { return Shape::ScaleOffset(b) + 2 * r; }

}  // namespace

void RepackQ8_0(const BlockQ8_0* w, size_t row_stride, size_t rows, size_t n_blocks, uint8_t* out) {
  const Shape shape{rows, n_blocks};
  std::memset(out, 0, shape.Bytes());
  for (size_t g = 0; g < shape.Groups(); ++g) {
    uint8_t* group = out + g * shape.GroupBytes();
    for (size_t b = 0; b < n_blocks; ++b) {
      // Padding rows: quants 0 (bytes 128) and scale 0.
      std::memset(group + Shape::QuantOffset(b), 0x80, 512);
      for (size_t r = 0; r < kQ8_0RepackedRows && g * kQ8_0RepackedRows + r < rows; ++r) {
        const BlockQ8_0& block = w[(g * kQ8_0RepackedRows + r) * row_stride + b];
        std::memcpy(group + ScaleByte(r, b), &block.d, 2);
        for (int j = 0; j < 32; ++j) group[QuantByte(r, b, j)] = static_cast<uint8_t>(block.qs[j]) ^ 0x80;
      }
    }
  }
}

int8_t RepackedQ8_0Quant(const uint8_t* packed, const Q8_0RepackedShape& shape, size_t r,
                         size_t b, int j) {
  const uint8_t byte = packed[r / kQ8_0RepackedRows * shape.GroupBytes() + QuantByte(r % kQ8_0RepackedRows, b, j)];
  return static_cast<int8_t>(byte - 128);
}

uint16_t RepackedQ8_0Scale(const uint8_t* packed, const Q8_0RepackedShape& shape, size_t r,
                           size_t b) {
  uint16_t d;
  std::memcpy(&d, packed + r / kQ8_0RepackedRows * shape.GroupBytes() + ScaleByte(r % kQ8_0RepackedRows, b), 2);
  return d;
}

}  // namespace cpubrrr
