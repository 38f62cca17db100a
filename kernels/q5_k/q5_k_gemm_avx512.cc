// AVX-512 VNNI Q5_K x Q8_K gemm on the K-quant lane tile
// (kernels/kquant/lane_tile_kquant_avx512-inl.h): bit for bit the oracle's results.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kquant/lane_tile_kquant_avx512-inl.h"
#include "kernels/q5_k/q5_k_avx512.h"

namespace cpubrrr {
namespace {

using Super = kquant_lanes::LaneSuper<8>;

// The GGUF layout's decoder: row r's block at rows[r] + offset, as the lane tile's format.
struct Q5KLanes {
  using Block = BlockQ5K;
  static constexpr int kSubs = 8;
  static constexpr bool kMins = true;

  // Decodes one Q5_K superblock of 16 rows: the 5-bit quants as bytes (nibbles of qs, sub-
  // block 2p in the low nibbles of qs[32p ..], 2p + 1 in the high ones, plus 16 times bit
  // j of qh[i]), the 6-bit scales as int32, each min m_j as the int16 pair (m_j, m_j)
  // against the bsums 2j, 2j + 1, and d, dmin as floats.
  __attribute__((always_inline)) void Decode(const uint8_t* const rows[kquant_lanes::kGroupRows],
                                             size_t offset, Super* out) const {
    const uint8_t* headers[kquant_lanes::kGroupRows];
    const uint8_t* high[kquant_lanes::kGroupRows];
    const uint8_t* quants[kquant_lanes::kGroupRows];
#pragma GCC unroll 16
    for (int r = 0; r < kquant_lanes::kGroupRows; ++r) {
      headers[r] = rows[r] + offset;
      high[r] = rows[r] + offset + offsetof(BlockQ5K, qh);
      quants[r] = rows[r] + offset + offsetof(BlockQ5K, qs);
    }
    const __m512i low4 = _mm512_set1_epi8(0x0F);
    kquant_lanes::DecodeScaledMinHeaders(headers, out);
    const __m512i bit4 = _mm512_set1_epi8(0x10);
#pragma GCC unroll 2
    for (int half = 0; half < 2; ++half) {
      // hb[k] lane i: qh bytes 16 half + 4k .. + 4 of the lane's row, the fifth bits of
      // elements 16 half + 4k .. + 4 of every sub-block (bit j for sub-block j).
      __m512i hb[4];
      lane_tile::TransposeDwords(high, 16 * half, hb);
#pragma GCC unroll 4
      for (int p = 0; p < 4; ++p) {
        __m512i t[4];
        lane_tile::TransposeDwords(quants, 32 * p + 16 * half, t);
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k) {
          // Bit 2p (2p + 1) of each qh byte moved to bit 4 of its byte; a 32-bit shift
          // keeps every byte's bit 4 from its own byte, since the shift is at most 4.
          const int s_lo = 2 * p, s_hi = 2 * p + 1;
          const __m512i b_lo = _mm512_and_si512(
              s_lo <= 4 ? _mm512_slli_epi32(hb[k], 4 - s_lo) : _mm512_srli_epi32(hb[k], s_lo - 4),
              bit4);
          const __m512i b_hi = _mm512_and_si512(
              s_hi <= 4 ? _mm512_slli_epi32(hb[k], 4 - s_hi) : _mm512_srli_epi32(hb[k], s_hi - 4),
              bit4);
          // 0xEC = (A & C) | B: the nibble of A under mask C, or'ed with the fifth bit B.
          out->q[8 * (2 * p) + 4 * half + k] = _mm512_ternarylogic_epi32(t[k], b_lo, low4, 0xEC);
          out->q[8 * (2 * p + 1) + 4 * half + k] =
              _mm512_ternarylogic_epi32(_mm512_srli_epi32(t[k], 4), b_hi, low4, 0xEC);
        }
      }
    }
  }

  // The token's bsums, as the oracle's msum reads them.
  void Sums(const BlockQ8K& x, int32_t* out) const { std::memcpy(out, x.bsums, sizeof(x.bsums)); }
};

}  // namespace

void Q5KGemmAvx512(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  kquant_lanes::Gemm<Q5KLanes>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
