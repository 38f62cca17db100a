// AVX-512 VNNI Q6_K x Q8_K gemm of Avx512LaneTileFrom() tokens or more on the K-quant lane
// tile (kernels/kquant/lane_tile_kquant_avx512-inl.h): bit for bit the oracle's results.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kquant/lane_tile_kquant_avx512-inl.h"
#include "kernels/q6_k/q6_k_lane_parts_avx512-inl.h"
#include "kernels/q6_k/q6_k_avx512.h"

namespace cpubrrr {
namespace {

// Decodes one Q6_K superblock of 16 rows: the quants q (0..63) as unsigned bytes here,
// scales, offset pairs and d by the shared parts (q6_k_lane_parts_avx512-inl.h).
struct Q6KLanes {
  using Block = BlockQ6K;
  static constexpr int kSubs = 16;
  static constexpr bool kMins = false;

  __attribute__((always_inline)) void Decode(const uint8_t* const rows[kquant_lanes::kGroupRows],
                                             size_t offset, kquant_lanes::LaneSuper<16>* out) const {
    const __m512i low4 = _mm512_set1_epi8(0x0F), bits45 = _mm512_set1_epi8(0x30);
    // Half h, bytes 16c .. 16c + 15 of its 32: ql[l] gives elements 128h + l (low nibble)
    // and + 64 (high), ql[l + 32] elements + 32 and + 96, qh[l] their top bits (pairs 0-1,
    // 2-3, 4-5, 6-7), each moved to bits 4-5 below. Element 128h + 16c + 32n + 4k is
    // step k of sub-block 8h + 2n + c.
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
#pragma GCC unroll 2
      for (int c = 0; c < 2; ++c) {
        __m512i a[4], b[4], hi[4];
        lane_tile::TransposeDwords(rows, offset + offsetof(BlockQ6K, ql) + 64 * h + 16 * c, a);
        lane_tile::TransposeDwords(rows, offset + offsetof(BlockQ6K, ql) + 64 * h + 32 + 16 * c, b);
        lane_tile::TransposeDwords(rows, offset + offsetof(BlockQ6K, qh) + 32 * h + 16 * c, hi);
        const int s = 8 * h + c;
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k) {
          // 0xEC = (A & C) | B: the nibble of A under mask C, or'ed with the top bits B.
          out->q[4 * s + k] = _mm512_ternarylogic_epi32(
              a[k], _mm512_and_si512(_mm512_slli_epi32(hi[k], 4), bits45), low4, 0xEC);
          out->q[4 * (s + 2) + k] = _mm512_ternarylogic_epi32(
              b[k], _mm512_and_si512(_mm512_slli_epi32(hi[k], 2), bits45), low4, 0xEC);
          out->q[4 * (s + 4) + k] = _mm512_ternarylogic_epi32(
              _mm512_srli_epi32(a[k], 4), _mm512_and_si512(hi[k], bits45), low4, 0xEC);
          out->q[4 * (s + 6) + k] = _mm512_ternarylogic_epi32(
              _mm512_srli_epi32(b[k], 4), _mm512_and_si512(_mm512_srli_epi32(hi[k], 2), bits45),
              low4, 0xEC);
        }
      }
    }
    const uint8_t* scales[kquant_lanes::kGroupRows];
    const uint8_t* d[kquant_lanes::kGroupRows];
#pragma GCC unroll 16
    for (int r = 0; r < kquant_lanes::kGroupRows; ++r) {
      scales[r] = rows[r] + offset + offsetof(BlockQ6K, scales);
      d[r] = rows[r] + offset + offsetof(BlockQ6K, d);
    }
    q6_k_lanes::DecodeScales(scales, out);
    q6_k_lanes::DecodeD(d, out);
  }

  void Sums(const BlockQ8K& x, int32_t* out) const { q6_k_lanes::Sums(x, out); }
};

}  // namespace

void Q6KLaneGemmAvx512(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                       size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                       size_t y_stride) {
  kquant_lanes::Gemm<Q6KLanes>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
