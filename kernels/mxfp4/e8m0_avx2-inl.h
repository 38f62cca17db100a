// 2^(e-128) in eight float lanes from eight E8M0 codes, for the AVX2 kernels on the
// repacked layout. Include from a translation unit compiled with AVX2.
#ifndef CPUBRRR_KERNELS_MXFP4_E8M0_AVX2_INL_H_
#define CPUBRRR_KERNELS_MXFP4_E8M0_AVX2_INL_H_

#include <immintrin.h>

#include "kernels/common/avx2_variant_name.h"

namespace cpubrrr::avx2 {
inline namespace CPUBRRR_AVX2_VARIANT_NAMESPACE {

// Lane i: 2^(e_i - 128) for the code e_i (0..255) in int32 lane i, as E8m0ToFp32Half
// builds it: exponent field e - 1, or a subnormal for e < 2.
__attribute__((always_inline)) inline __m256 E8m0HalfLanes(__m256i e) {
  const __m256i normal = _mm256_slli_epi32(_mm256_sub_epi32(e, _mm256_set1_epi32(1)), 23);
  const __m256i subnormal = _mm256_sllv_epi32(_mm256_set1_epi32(0x00200000), e);
  const __m256i small = _mm256_cmpgt_epi32(_mm256_set1_epi32(2), e);
  return _mm256_castsi256_ps(_mm256_blendv_epi8(normal, subnormal, small));
}

}  // namespace CPUBRRR_AVX2_VARIANT_NAMESPACE
}  // namespace cpubrrr::avx2

#endif  // CPUBRRR_KERNELS_MXFP4_E8M0_AVX2_INL_H_
