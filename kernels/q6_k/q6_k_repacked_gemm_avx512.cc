// AVX-512 VNNI Q6_K x Q8_K gemm of Avx512LaneTileFrom() tokens or more on the repacked layout (kernels/q6_k/q6_k_repacked.h): the
// repacked K-quant lane tile (kernels/kquant/repacked_lane_tile_kquant_avx512-inl.h) with a
// decoder of the A, B, C vectors, so results are the oracle's bit for bit.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/kquant/repacked_lane_tile_kquant_avx512-inl.h"
#include "kernels/q6_k/q6_k_lane_parts_avx512-inl.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "kernels/q6_k/q6_k_repacked_bits_avx512-inl.h"

namespace cpubrrr {
namespace {

using Shape = Q6KRepackedShape;

struct Q6KRepackedLanes {
  using Block = BlockQ6K;
  static constexpr int kSubs = 16;
  static constexpr bool kMins = false;

  // Superblock b of the 16 rows of four groups: dword d of row r's A, B and C holds
  // elements 4d .. 4d + 3, 64 + 4d .., 128 + 4d .. in their low six bits and the top bits
  // of 192 + 4d .., so A, B, C give sub-blocks 0-3, 4-7, 8-11 and their top bits 12-15.
  __attribute__((always_inline)) void DecodeRepacked(const uint8_t* const group[lane_tile::kLaneGroupGroups],
                                                     size_t b, q6_k_lanes::Super* out) const {
    const uint8_t* abc[kquant_lanes::kGroupRows];
    const uint8_t* scales[kquant_lanes::kGroupRows];
    const uint8_t* d[kquant_lanes::kGroupRows];
#pragma GCC unroll 16
    for (size_t r = 0; r < kquant_lanes::kGroupRows; ++r) {
      const uint8_t* g = group[r / kRepackedRows];
      const size_t rr = r % kRepackedRows;
      abc[r] = g + Shape::QuantOffset(b) + 64 + 192 * rr;
      scales[r] = g + Shape::QuantOffset(b) + 16 * rr;
      d[r] = g + Shape::ScaleOffset(b) + 2 * rr;
    }
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
      __m512i v[3][4];
#pragma GCC unroll 3
      for (int k = 0; k < 3; ++k) lane_tile::TransposeDwords(abc, 64 * k + 16 * c, v[k]);
#pragma GCC unroll 4
      for (int m = 0; m < 4; ++m) {
        const int dw = 4 * c + m;
        out->q[dw] = q6_k_repacked::LowSix(v[0][m]);
        out->q[16 + dw] = q6_k_repacked::LowSix(v[1][m]);
        out->q[32 + dw] = q6_k_repacked::LowSix(v[2][m]);
        out->q[48 + dw] = q6_k_repacked::TopBits(v[0][m], v[1][m], v[2][m]);
      }
    }
    q6_k_lanes::DecodeScales(scales, out);
    q6_k_lanes::DecodeD(d, out);
  }

  void Sums(const BlockQ8K& x, int32_t* out) const { q6_k_lanes::Sums(x, out); }
};

}  // namespace

void Q6KRepackedLaneGemmAvx512(const uint8_t* packed, const Q6KRepackedShape& shape,
                               size_t group_begin, size_t n_groups, const BlockQ8K* x,
                               size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  kquant_lanes::RepackedGemm<Q6KRepackedLanes>(packed, shape, group_begin, n_groups, x, x_stride,
                                               n_tokens, y, y_stride);
}

}  // namespace cpubrrr
