// The portable MXFP4 repack (kernels/mxfp4/mxfp4_repacked.h) and its scalar read-back.
#include <cstring>
#include <vector>

#include "kernels/mxfp4/mxfp4_repacked.h"

namespace cpubrrr {
namespace {

using Shape = Mxfp4RepackedShape;

// Fills a pair's nibble vector v from blocks a[0..1] (low nibbles) and b[0..1] (high); for
// a lone last block (`two` false) the second block's bytes stay as they are (zero).
void InterleavePair(const BlockMxfp4* a, const BlockMxfp4* b, bool two, uint8_t* v) {
  for (size_t h = 0; h < (two ? 2u : 1u); ++h) {
    const uint8_t* qa = a[h].qs;
    const uint8_t* qb = b[h].qs;
    for (int j = 0; j < 16; ++j) {
      v[16 * h + j] = static_cast<uint8_t>((qa[j] & 0x0F) | (qb[j] << 4));       // values 0-15
      v[32 + 16 * h + j] = static_cast<uint8_t>((qa[j] >> 4) | (qb[j] & 0xF0));  // 16-31
    }
  }
}

}  // namespace

void RepackMxfp4(const BlockMxfp4* w, size_t row_stride, size_t rows, size_t n_blocks,
                 uint8_t* out) {
  const Mxfp4RepackedShape shape{rows, n_blocks};
  std::memset(out, 0, shape.Bytes());
  // Padding rows read as a zero row (code 0 is +0, exponent 0).
  const std::vector<BlockMxfp4> zero_row(n_blocks, BlockMxfp4{});
  for (size_t g = 0; g < shape.Groups(); ++g) {
    uint8_t* group = out + g * shape.GroupBytes();
    const BlockMxfp4* row[kRepackedRows];
    for (size_t rr = 0; rr < kRepackedRows; ++rr) {
      const size_t r = g * kRepackedRows + rr;
      row[rr] = r < rows ? w + r * row_stride : zero_row.data();
    }
    for (size_t p = 0; p < shape.Units(); ++p) {
      const size_t b = 2 * p;
      const bool two = b + 1 < n_blocks;
      uint8_t* e = group + Shape::ScaleOffset(p);
      for (size_t rr = 0; rr < kRepackedRows; ++rr) {
        e[2 * rr] = row[rr][b].e;
        e[2 * rr + 1] = two ? row[rr][b + 1].e : 0;
      }
      uint8_t* v = group + Shape::QuantOffset(p);
      InterleavePair(row[0] + b, row[1] + b, two, v);
      InterleavePair(row[2] + b, row[3] + b, two, v + 64);
    }
  }
}

uint8_t RepackedMxfp4Code(const uint8_t* packed, const Mxfp4RepackedShape& shape, size_t r,
                          size_t b, int j) {
  const uint8_t* v = packed + r / kRepackedRows * shape.GroupBytes() + Shape::QuantOffset(b / 2) +
                     64 * (r % kRepackedRows / 2);
  const size_t i = (b % 2) * 16 + static_cast<size_t>(j % 16) + 32 * static_cast<size_t>(j / 16);
  return (v[i] >> (4 * (r % 2))) & 15;
}

uint8_t RepackedMxfp4Exponent(const uint8_t* packed, const Mxfp4RepackedShape& shape, size_t r,
                              size_t b) {
  return packed[r / kRepackedRows * shape.GroupBytes() + Shape::ScaleOffset(b / 2) +
                2 * (r % kRepackedRows) + b % 2];
}

}  // namespace cpubrrr
