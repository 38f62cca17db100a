// The portable Q8_0 repack (kernels/q8_0/q8_0_repacked.h) and its scalar read-back.
#include <cstring>

#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

using Shape = Q8_0RepackedShape;

}  // namespace

void RepackQ8_0(const BlockQ8_0* w, size_t row_stride, size_t rows, size_t n_blocks, uint8_t* out) {
  const Shape shape{rows, n_blocks};
  std::memset(out, 0, shape.Bytes());
  for (size_t g = 0; g < shape.Groups(); ++g) {
    uint8_t* group = out + g * shape.GroupBytes();
    for (size_t p = 0; p < shape.Units(); ++p) {
      uint8_t* scales = group + Shape::ScaleOffset(p);
      uint8_t* quants = group + Shape::QuantOffset(p);
      // Padding (rows past the matrix, a block past the row): quants 0 and scale 0.
      std::memset(quants, 0x80, 256);
      for (size_t rr = 0; rr < kRepackedRows && g * kRepackedRows + rr < rows; ++rr) {
        const BlockQ8_0* row = w + (g * kRepackedRows + rr) * row_stride;
        for (size_t h = 0; h < 2 && 2 * p + h < n_blocks; ++h) {
          const BlockQ8_0& b = row[2 * p + h];
          std::memcpy(scales + 2 * (2 * rr + h), &b.d, 2);
          uint8_t* q = quants + 64 * rr + 32 * h;
          for (int j = 0; j < 32; ++j) q[j] = static_cast<uint8_t>(b.qs[j]) ^ 0x80;
        }
      }
    }
  }
}

int8_t RepackedQ8_0Quant(const uint8_t* packed, const Q8_0RepackedShape& shape, size_t r,
                         size_t b, int j) {
  const uint8_t byte = packed[r / kRepackedRows * shape.GroupBytes() + Shape::QuantOffset(b / 2) +
                              64 * (r % kRepackedRows) + 32 * (b % 2) + static_cast<size_t>(j)];
  return static_cast<int8_t>(byte - 128);
}

uint16_t RepackedQ8_0Scale(const uint8_t* packed, const Q8_0RepackedShape& shape, size_t r,
                           size_t b) {
  uint16_t d;
  std::memcpy(&d, packed + r / kRepackedRows * shape.GroupBytes() + Shape::ScaleOffset(b / 2) +
                      2 * (2 * (r % kRepackedRows) + b % 2), 2);
  return d;
}

}  // namespace cpubrrr
