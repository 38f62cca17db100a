// AVX-512 VNNI Q6_K x Q8_K gemm on the K-quant lane tile
// (kernels/kquant/lane_tile_kquant_avx512-inl.h): bit for bit the oracle's results.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kquant/lane_tile_kquant_avx512-inl.h"
#include "kernels/q6_k/q6_k_avx512.h"

namespace cpubrrr {
namespace {

// Decodes one Q6_K superblock of 16 rows: the quants q (0..63) as unsigned bytes, the
// int8 scales as int32, and the -32 offset as int16 pairs (-32 sc_2p, -32 sc_2p+1) against
// the token's 16-value sums 2p, 2p + 1, so isum = sum_s sc_s (dot(q_s, x_s) - 32 sum(x_s)).
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
    __m512i sc4[4];
    lane_tile::TransposeDwords(rows, offset + offsetof(BlockQ6K, scales), sc4);
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
#pragma GCC unroll 4
      for (int e = 0; e < 4; ++e) {
        out->sc[4 * k + e] = _mm512_srai_epi32(_mm512_slli_epi32(sc4[k], 24 - 8 * e), 24);
      }
    }
    const __m512i low16 = _mm512_set1_epi32(0xFFFF);
#pragma GCC unroll 8
    for (int p = 0; p < 8; ++p) {
      const __m512i lo = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_slli_epi32(out->sc[2 * p], 5));
      const __m512i hi = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_slli_epi32(out->sc[2 * p + 1], 5));
      out->pairs[p] = _mm512_or_si512(_mm512_and_si512(lo, low16), _mm512_slli_epi32(hi, 16));
    }
    alignas(32) uint16_t d[kquant_lanes::kGroupRows];
#pragma GCC unroll 16
    for (int i = 0; i < kquant_lanes::kGroupRows; ++i) {
      std::memcpy(&d[i], rows[kquant_lanes::kLaneRow[i]] + offset + offsetof(BlockQ6K, d), 2);
    }
    out->d = _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(d)));
  }

  // The 16-value sums of the token's quants, recomputed (the oracle does not read bsums).
  void Sums(const BlockQ8K& x, int32_t* out) const {
    int16_t sums[16];
    for (int s = 0; s < 16; ++s) {
      int sum = 0;
      for (int i = 0; i < 16; ++i) sum += x.qs[16 * s + i];
      sums[s] = static_cast<int16_t>(sum);
    }
    std::memcpy(out, sums, sizeof(sums));
  }
};

}  // namespace

void Q6KGemmAvx512(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  kquant_lanes::Gemm<Q6KLanes>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
