// The portable MXFP4 repack (kernels/mxfp4/mxfp4_repacked.h) and its scalar read-back.
#include <cstring>

#include "kernels/mxfp4/mxfp4_repacked.h"

namespace cpubrrr {
namespace {

constexpr size_t kChunkBytes = 64 + kRepackedChunkPairs * kRepackedPairBytes;

// Offset of pair p's exponent bytes, and of its nibble vectors, from its group's start.
size_t ExponentOffset(size_t p) {
  return p / kRepackedChunkPairs * kChunkBytes + 8 * (p % kRepackedChunkPairs);
}
size_t NibbleOffset(size_t p) {
  return p / kRepackedChunkPairs * kChunkBytes + 64 + kRepackedPairBytes * (p % kRepackedChunkPairs);
}

// Byte i of a nibble vector: block 2p + BlockOf(i), value ValueOf(i).
size_t BlockOf(size_t i) { return (i / 16) % 2; }
int ValueOf(size_t i) { return static_cast<int>(i % 16 + 16 * (i / 32)); }

uint8_t Code(const BlockMxfp4& b, int j) { return j < 16 ? b.qs[j] & 15 : b.qs[j - 16] >> 4; }

}  // namespace

void RepackMxfp4(const BlockMxfp4* w, size_t row_stride, size_t rows, size_t n_blocks,
                 uint8_t* out) {
  const Mxfp4RepackedShape shape{rows, n_blocks};
  std::memset(out, 0, shape.Bytes());
  // Padding rows and the padding block stay zero: code 0 is +0.
  for (size_t g = 0; g < shape.Groups(); ++g) {
    uint8_t* group = out + g * shape.GroupBytes();
    for (size_t rr = 0; rr < kRepackedRows && g * kRepackedRows + rr < rows; ++rr) {
      const BlockMxfp4* row = w + (g * kRepackedRows + rr) * row_stride;
      for (size_t b = 0; b < n_blocks; ++b) {
        const size_t p = b / 2;
        group[ExponentOffset(p) + 2 * rr + b % 2] = row[b].e;
        uint8_t* v = group + NibbleOffset(p) + 64 * (rr / 2);
        const int shift = 4 * (rr % 2);
        for (size_t i = 0; i < 64; ++i) {
          if (BlockOf(i) == b % 2) v[i] |= static_cast<uint8_t>(Code(row[b], ValueOf(i)) << shift);
        }
      }
    }
  }
}

uint8_t RepackedMxfp4Code(const uint8_t* packed, const Mxfp4RepackedShape& shape, size_t r,
                          size_t b, int j) {
  const uint8_t* v = packed + r / kRepackedRows * shape.GroupBytes() + NibbleOffset(b / 2) +
                     64 * (r % kRepackedRows / 2);
  const size_t i = (b % 2) * 16 + static_cast<size_t>(j % 16) + 32 * static_cast<size_t>(j / 16);
  return (v[i] >> (4 * (r % 2))) & 15;
}

uint8_t RepackedMxfp4Exponent(const uint8_t* packed, const Mxfp4RepackedShape& shape, size_t r,
                              size_t b) {
  return packed[r / kRepackedRows * shape.GroupBytes() + ExponentOffset(b / 2) +
                2 * (r % kRepackedRows) + b % 2];
}

}  // namespace cpubrrr
