// AVX-512 f32 -> Q8_K quantizer, bit-exact with the scalar reference (compiled with -mavx512*).
#include "kernels/q8_k/q8_k_avx512.h"

#include <immintrin.h>

namespace cpubrrr {
namespace {

constexpr int kVecs = kQ8KBlockSize / 16;  // 16 floats per zmm; one vector = one bsum group

void QuantizeBlock(const float* x, BlockQ8K* y) {
  __m512 v[kVecs];
  __m512 amax = _mm512_setzero_ps();
  for (int k = 0; k < kVecs; ++k) {
    v[k] = _mm512_loadu_ps(x + 16 * k);
    amax = _mm512_max_ps(amax, _mm512_abs_ps(v[k]));
  }
  const float m = _mm512_reduce_max_ps(amax);
  if (m == 0) {
    *y = BlockQ8K{};
    return;
  }
  // The reference keeps the first element of largest magnitude, with its sign.
  const __m512 mv = _mm512_set1_ps(m);
  float max = 0;
  for (int k = 0; k < kVecs; ++k) {
    const __mmask16 hit = _mm512_cmp_ps_mask(_mm512_abs_ps(v[k]), mv, _CMP_EQ_OQ);
    if (hit) {
      max = x[16 * k + __builtin_ctz(hit)];
      break;
    }
  }
  const float inv = -127.0f / max;
  const __m512 scale = _mm512_set1_ps(inv);
  // Same rounding as the reference: adding 1.5 * 2^23 leaves the nearest integer (ties to
  // even) in the low mantissa bits, offset by 2^22; reproducing it bit for bit also gives
  // the reference's wrapped values when inv overflows to infinity (subnormal blocks).
  const __m512 magic = _mm512_set1_ps(12582912.0f);
  const __m512i mantissa = _mm512_set1_epi32(0x007FFFFF);
  const __m512i offset = _mm512_set1_epi32(0x00400000);
  const __m512i cap = _mm512_set1_epi32(127);
  for (int k = 0; k < kVecs; ++k) {
    const __m512 r = _mm512_add_ps(_mm512_mul_ps(scale, v[k]), magic);
    __m512i q = _mm512_sub_epi32(_mm512_and_si512(_mm512_castps_si512(r), mantissa), offset);
    q = _mm512_min_epi32(q, cap);
    const __m128i q8 = _mm512_cvtepi32_epi8(q);  // truncates, as the reference's int8 cast
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y->qs + 16 * k), q8);
    y->bsums[k] = static_cast<int16_t>(_mm512_reduce_add_epi32(_mm512_cvtepi8_epi32(q8)));
  }
  y->d = 1 / inv;
}

}  // namespace

void QuantizeQ8KAvx512(const float* x, BlockQ8K* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ8KBlockSize; ++b) QuantizeBlock(x + b * kQ8KBlockSize, y + b);
}

}  // namespace cpubrrr
