// Decoding of the repacked Q6_K quant vectors A, B, C (kernels/q6_k/q6_k_repacked.h),
// shared by the repacked gemv and gemm. Include only from AVX-512 sources.
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_REPACKED_BITS_AVX512_INL_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_REPACKED_BITS_AVX512_INL_H_

#include <immintrin.h>

namespace cpubrrr::q6_k_repacked {

// Returns the quant (0..63) held in the low six bits of each byte of v.
inline __m512i LowSix(__m512i v) { return _mm512_and_si512(v, _mm512_set1_epi8(0x3F)); }

// Returns, per byte j, the quant of element 192 + j from the top two bits of A, B, C
// (bits 0-1, 2-3, 4-5 of the quant). 0xCA selects (first operand ? second : third) bit by
// bit; the 16-bit shifts pull in bits of the next byte, which the selections and the last
// mask drop. Works on any vectors whose bytes line up, such as transposed dwords.
inline __m512i TopBits(__m512i a, __m512i b, __m512i c) {
  const __m512i top01 = _mm512_ternarylogic_epi32(_mm512_set1_epi8(0x03), _mm512_srli_epi16(a, 6),
                                                  _mm512_srli_epi16(b, 4), 0xCA);
  const __m512i top = _mm512_ternarylogic_epi32(_mm512_set1_epi8(0x0F), top01,
                                                _mm512_srli_epi16(c, 2), 0xCA);
  return LowSix(top);
}

}  // namespace cpubrrr::q6_k_repacked

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_REPACKED_BITS_AVX512_INL_H_
