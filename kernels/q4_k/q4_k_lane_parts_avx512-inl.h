// The Q4_K lane-tile decode (kernels/kquant/lane_tile_kquant_avx512-inl.h) that the GGUF
// and repacked layouts share: 16 rows' headers and quants, wherever each row keeps them, and
// the token sums.
// Include only from AVX-512 sources.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_LANE_PARTS_AVX512_INL_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_LANE_PARTS_AVX512_INL_H_

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/kquant/lane_tile_kquant_avx512-inl.h"
#include "quant/q8_k.h"

namespace cpubrrr::q4_k_lanes {

using Super = kquant_lanes::LaneSuper<8>;

// Decodes one Q4_K superblock of 16 rows, row r's 16 header bytes (d, dmin, the 12 scale
// bytes) at headers[r] and its 128 quant bytes at quants[r]: nibbles as bytes (sub-block
// 2p in the low nibbles of qs[32p ..], 2p + 1 in the high ones), the 6-bit scales as int32,
// each min m_j as the int16 pair (m_j, m_j) against the bsums 2j, 2j + 1, and d, dmin as
// floats.
__attribute__((always_inline)) inline void Decode(const uint8_t* const headers[kquant_lanes::kGroupRows],
                                                  const uint8_t* const quants[kquant_lanes::kGroupRows],
                                                  Super* out) {
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  kquant_lanes::DecodeScaledMinHeaders(headers, out);
#pragma GCC unroll 4
  for (int p = 0; p < 4; ++p) {
#pragma GCC unroll 2
    for (int half = 0; half < 2; ++half) {
      __m512i t[4];
      lane_tile::TransposeDwords(quants, 32 * p + 16 * half, t);
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) {
        out->q[8 * (2 * p) + 4 * half + k] = _mm512_and_si512(t[k], low4);
        out->q[8 * (2 * p + 1) + 4 * half + k] = _mm512_and_si512(_mm512_srli_epi32(t[k], 4), low4);
      }
    }
  }
}

// The token's bsums, as the oracle's msum reads them.
inline void Sums(const BlockQ8K& x, int32_t* out) { std::memcpy(out, x.bsums, sizeof(x.bsums)); }

}  // namespace cpubrrr::q4_k_lanes

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_LANE_PARTS_AVX512_INL_H_
