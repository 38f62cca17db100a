// The parts of a Q6_K lane-tile decode (kernels/kquant/lane_tile_kquant_avx512-inl.h) that
// the GGUF and repacked layouts share: sub-block scales, the -32 offset pairs, d, and the
// token sums. Include only from AVX-512 sources.
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_LANE_PARTS_AVX512_INL_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_LANE_PARTS_AVX512_INL_H_

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kquant/lane_tile_kquant_avx512-inl.h"
#include "quant/q8_k.h"

namespace cpubrrr::q6_k_lanes {

using Super = kquant_lanes::LaneSuper<16>;

// From the 16 int8 sub-block scales at scales[r] of rows r = 0 .. 15: out->sc[s] (lane i:
// scale s of row kLaneRow[i], as int32) and the -32 offset as int16 pairs (-32 sc_2p,
// -32 sc_2p+1) against the token's 16-value sums 2p, 2p + 1, so isum = sum_s sc_s
// (dot(q_s, x_s) - 32 sum(x_s)).
__attribute__((always_inline)) inline void DecodeScales(const uint8_t* const scales[kquant_lanes::kGroupRows],
                                                        Super* out) {
  __m512i sc4[4];
  lane_tile::TransposeDwords(scales, 0, sc4);
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
}

// out->d from the fp16 d at d_at[r] of rows r = 0 .. 15 (lane i: row kLaneRow[i]).
__attribute__((always_inline)) inline void DecodeD(const uint8_t* const d_at[kquant_lanes::kGroupRows],
                                                   Super* out) {
  alignas(32) uint16_t d[kquant_lanes::kGroupRows];
#pragma GCC unroll 16
  for (int i = 0; i < kquant_lanes::kGroupRows; ++i) {
    std::memcpy(&d[i], d_at[kquant_lanes::kLaneRow[i]], 2);
  }
  out->d = _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(d)));
}

// The 16-value sums of the token's quants, recomputed (the oracle does not read bsums).
inline void Sums(const BlockQ8K& x, int32_t* out) {
  int16_t sums[16];
  for (int s = 0; s < 16; ++s) {
    int sum = 0;
    for (int i = 0; i < 16; ++i) sum += x.qs[16 * s + i];
    sums[s] = static_cast<int16_t>(sum);
  }
  std::memcpy(out, sums, sizeof(sums));
}

}  // namespace cpubrrr::q6_k_lanes

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_LANE_PARTS_AVX512_INL_H_
