// 2^(e-128) in 16 float lanes from 16 E8M0 codes, for the AVX-512 lane-tile decoders.
// Include from a translation unit compiled with AVX-512 F.
#ifndef CPUBRRR_KERNELS_MXFP4_E8M0_AVX512_INL_H_
#define CPUBRRR_KERNELS_MXFP4_E8M0_AVX512_INL_H_

#include <immintrin.h>

namespace cpubrrr {

// Lane i: 2^(e_i - 128) for the code e_i (0..255) in int32 lane i, as E8m0ToFp32Half
// builds it: exponent field e - 1, or a subnormal for e < 2.
__attribute__((always_inline)) inline __m512 E8m0HalfLanes(__m512i e) {
  const __mmask16 small = _mm512_cmplt_epu32_mask(e, _mm512_set1_epi32(2));
  const __m512i normal = _mm512_slli_epi32(_mm512_sub_epi32(e, _mm512_set1_epi32(1)), 23);
  const __m512i subnormal = _mm512_sllv_epi32(_mm512_set1_epi32(0x00200000), e);
  return _mm512_castsi512_ps(_mm512_mask_blend_epi32(small, normal, subnormal));
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_MXFP4_E8M0_AVX512_INL_H_
