// AVX2 helpers shared by the int8 block-dot variants (compile with -mavx2 -mf16c, and
// -mfma where they use FMA): int8 and int16 dots into int32 lanes (vpdpbusd and vpdpwssd
// when compiled with -mavxvnni, the same integer sums), the horizontal sums (the float
// one in ggml's x86 order, four vectors' at once), loads, fp16 scales.
#ifndef CPUBRRR_KERNELS_TILES_AVX2_DOT_INL_H_
#define CPUBRRR_KERNELS_TILES_AVX2_DOT_INL_H_

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/avx2_variant_name.h"

namespace cpubrrr::avx2 {
inline namespace CPUBRRR_AVX2_VARIANT_NAMESPACE {

// Returns acc plus, in each int32 lane, the dot of its four unsigned bytes of u with its
// four signed bytes of s. Without AVX-VNNI vpmaddubsw sums the products by pairs in int16
// first: the callers keep each pair below 32768.
inline __m256i AddDots4(__m256i acc, __m256i u, __m256i s) {
#if defined(__AVXVNNI__)
  return _mm256_dpbusd_avx_epi32(acc, u, s);
#else
  return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1)));
#endif
}

// Returns acc plus, in each int32 lane, the sum of the products of its two int16 pairs of
// a and b (wrapping, as vpaddd does).
inline __m256i AddPairProducts(__m256i acc, __m256i a, __m256i b) {
#if defined(__AVXVNNI__)
  return _mm256_dpwssd_avx_epi32(acc, a, b);
#else
  return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
#endif
}

// Returns int16 lane j (0..7) of v in every int16 lane, for v holding the same eight int16
// values in both halves (a scale per sub-block): one vpshufb with a constant control.
inline __m256i SpreadInt16(__m256i v, int j) {
  return _mm256_shuffle_epi8(v, _mm256_set1_epi16(static_cast<int16_t>(0x0100 + 0x0202 * j)));
}

// Returns the eight int32 sums of four adjacent w[i] * x[i] products. The unsigned
// operand is |w| (128 for a weight of -128), which multiplies x with w's sign; the int16
// pair sums cannot saturate while no activation is -128 (2 * 128 * 127 < 32768).
inline __m256i SignedDot(__m256i w, __m256i x) {
  return AddDots4(_mm256_setzero_si256(), _mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w));
}

// Returns the sum of the eight int32 lanes.
inline int32_t SumInt32(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}

// Returns the sums of the eight int32 lanes of a, b, c and d, in that order.
inline __m128i SumInt32OfFour(__m256i a, __m256i b, __m256i c, __m256i d) {
  const __m256i s = _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
  return _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
}

// Writes the first n (at most 4) lanes of v to y.
inline void StoreFirst(__m128 v, size_t n, float* y) {
  alignas(16) float lanes[4];
  _mm_store_ps(lanes, v);
  for (size_t i = 0; i < n; ++i) y[i] = lanes[i];
}

// Returns 32 bytes loaded from `p` (any alignment).
inline __m256i Load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

// Returns the fp16 `h` as a float (F16C: exact, as quant/fp16.h's Fp16ToFp32, inline).
inline float HalfToFloat(uint16_t h) { return _cvtsh_ss(h); }

// Returns the sum of the eight lanes: halves, then pairs, then the two left.
inline float SumLanes(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_extractf128_ps(v, 1), _mm256_castps256_ps128(v));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

}  // namespace CPUBRRR_AVX2_VARIANT_NAMESPACE
}  // namespace cpubrrr::avx2

#endif  // CPUBRRR_KERNELS_TILES_AVX2_DOT_INL_H_
