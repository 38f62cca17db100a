// The portable Q6_K repack (kernels/q6_k/q6_k_repacked.h) and its scalar read-back.
#include <cstring>

#include "kernels/q6_k/q6_k_repacked.h"

namespace cpubrrr {
namespace {

using Shape = Q6KRepackedShape;

// A unit (Shape::QuantOffset) is its sub-block scale line, then each row's A, B, C.
constexpr size_t kScalesBytes = 16 * kRepackedRows;
constexpr size_t kRowQuantBytes = 192;                // A, B, C of one row

// Writes the unsigned 6-bit quants of b's 256 elements, in order, to q (quant/q6_k.h's
// layout: per half h and l < 32, ql[l] and ql[l + 32] give the low nibbles of elements l,
// l + 32 (low) and l + 64, l + 96 (high), qh[l] their top bits, two each).
void Q6Quants(const BlockQ6K& b, uint8_t* q) {
  for (int h = 0; h < 2; ++h) {
    const uint8_t* ql = b.ql + 64 * h;
    const uint8_t* qh = b.qh + 32 * h;
    uint8_t* qq = q + 128 * h;
    for (int l = 0; l < 32; ++l) {
      qq[l] = static_cast<uint8_t>((ql[l] & 0xF) | (qh[l] & 3) << 4);
      qq[l + 32] = static_cast<uint8_t>((ql[l + 32] & 0xF) | (qh[l] >> 2 & 3) << 4);
      qq[l + 64] = static_cast<uint8_t>((ql[l] >> 4) | (qh[l] >> 4 & 3) << 4);
      qq[l + 96] = static_cast<uint8_t>((ql[l + 32] >> 4) | (qh[l] >> 6) << 4);
    }
  }
}

}  // namespace

void RepackQ6K(const BlockQ6K* w, size_t row_stride, size_t rows, size_t n_blocks, uint8_t* out) {
  const Shape shape{rows, n_blocks};
  std::memset(out, 0, shape.Bytes());
  for (size_t g = 0; g < shape.Groups(); ++g) {
    uint8_t* group = out + g * shape.GroupBytes();
    for (size_t rr = 0; rr < kRepackedRows && g * kRepackedRows + rr < rows; ++rr) {
      const BlockQ6K* row = w + (g * kRepackedRows + rr) * row_stride;
      for (size_t b = 0; b < n_blocks; ++b) {
        std::memcpy(group + Shape::ScaleOffset(b) + 2 * rr, &row[b].d, 2);
        uint8_t* unit = group + Shape::QuantOffset(b);
        std::memcpy(unit + 16 * rr, row[b].scales, 16);
        uint8_t q[kQ6KBlockSize];
        Q6Quants(row[b], q);
        uint8_t* abc = unit + kScalesBytes + kRowQuantBytes * rr;
        for (int j = 0; j < 64; ++j) {
          const int top = q[192 + j];
          abc[j] = static_cast<uint8_t>(q[j] | (top & 3) << 6);
          abc[64 + j] = static_cast<uint8_t>(q[64 + j] | (top >> 2 & 3) << 6);
          abc[128 + j] = static_cast<uint8_t>(q[128 + j] | (top >> 4) << 6);
        }
      }
    }
  }
}

int RepackedQ6KQuant(const uint8_t* packed, const Q6KRepackedShape& shape, size_t r, size_t b,
                     int i) {
  const uint8_t* abc = packed + r / kRepackedRows * shape.GroupBytes() + Shape::QuantOffset(b) +
                       kScalesBytes + kRowQuantBytes * (r % kRepackedRows);
  if (i < 192) return abc[i] & 63;
  const int j = i - 192;
  return abc[j] >> 6 | (abc[64 + j] >> 6) << 2 | (abc[128 + j] >> 6) << 4;
}

int8_t RepackedQ6KScale(const uint8_t* packed, const Q6KRepackedShape& shape, size_t r, size_t b,
                        int s) {
  const uint8_t byte = packed[r / kRepackedRows * shape.GroupBytes() + Shape::QuantOffset(b) +
                              16 * (r % kRepackedRows) + static_cast<size_t>(s)];
  return static_cast<int8_t>(byte);
}

uint16_t RepackedQ6KD(const uint8_t* packed, const Q6KRepackedShape& shape, size_t r, size_t b) {
  uint16_t d;
  std::memcpy(&d, packed + r / kRepackedRows * shape.GroupBytes() + Shape::ScaleOffset(b) +
                      2 * (r % kRepackedRows), 2);
  return d;
}

}  // namespace cpubrrr
