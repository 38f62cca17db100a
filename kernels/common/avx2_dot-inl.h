// AVX2 helpers shared by the int8 block-dot variants (compile with -mavx2 -mfma -mf16c):
// a signed int8 dot by pairs and the float horizontal sum, both in ggml's x86 order.
#ifndef CPUBRRR_KERNELS_COMMON_AVX2_DOT_INL_H_
#define CPUBRRR_KERNELS_COMMON_AVX2_DOT_INL_H_

#include <immintrin.h>

#include <cstdint>

namespace cpubrrr::avx2 {

// Returns the eight int32 sums of four adjacent w[i] * x[i] products. vpmaddubsw takes
// one unsigned operand, so |w| (128 for a weight of -128) multiplies x with w's sign; the
// int16 pair sums cannot saturate while no activation is -128 (2 * 128 * 127 < 32768).
inline __m256i SignedDot(__m256i w, __m256i x) {
  const __m256i pairs = _mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w));
  return _mm256_madd_epi16(pairs, _mm256_set1_epi16(1));
}

// Returns the fp16 `h` as a float (F16C: exact, as quant/fp16.h's Fp16ToFp32, inline).
inline float HalfToFloat(uint16_t h) { return _cvtsh_ss(h); }

// Returns the sum of the eight lanes: halves, then pairs, then the two left.
inline float SumLanes(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_extractf128_ps(v, 1), _mm256_castps256_ps128(v));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

}  // namespace cpubrrr::avx2

#endif  // CPUBRRR_KERNELS_COMMON_AVX2_DOT_INL_H_
