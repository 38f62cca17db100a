// AVX-512 Q8_0 activation quantizer and VNNI Q8_0 x Q8_0 gemv/gemm on the shared pair tile.
#include <immintrin.h>

#include "kernels/common/pair_tile_avx512-inl.h"
#include "kernels/q8_0/q8_0_kernels.h"

namespace cpubrrr {
namespace {

// Decodes Q8_0 pairs: block b in the low 256 bits, b + 1 in the high (kBlocks). vpdpbusd
// multiplies unsigned by signed bytes, so weights get 128 added (xor of the sign bit); the
// pair tile removes it with the packed offsets.
struct Q8_0Pairs {
  using Block = BlockQ8_0;
  static constexpr pair_tile::LaneOrder kOrder = pair_tile::LaneOrder::kBlocks;
  const __m512i offset = _mm512_set1_epi8(static_cast<char>(0x80));

  __m512i Weights(const BlockQ8_0& b0, const BlockQ8_0* b1) const {
    const __m256i q0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b0.qs));
    const __m256i q1 = b1 ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b1->qs)) : _mm256_setzero_si256();
    return _mm512_xor_si512(_mm512_inserti64x4(_mm512_castsi256_si512(q0), q1, 1), offset);
  }
  __m512 Scale(const BlockQ8_0& b0, const BlockQ8_0* b1) const {
    const __m128i d0 = _mm_set1_epi16(static_cast<short>(b0.d));
    const __m128i d1 = _mm_set1_epi16(static_cast<short>(b1 ? b1->d : b0.d));
    return _mm512_cvtph_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(d0), d1, 1));
  }
};

// Quantizes one block of 32 floats like QuantizeRowQ8_0: amax, d = amax / 127, inv_d = 1 / d
// (0 when d is 0), q = x * inv_d rounded half away from zero. The rounding is trunc(v)
// plus sign(v) where |v - trunc(v)| >= 0.5; v - trunc(v) is exact for |v| < 2^23.
inline void QuantizeBlock(const float* x, BlockQ8_0* y) {
  const __m512 x0 = _mm512_loadu_ps(x), x1 = _mm512_loadu_ps(x + 16);
  const float amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(x0), _mm512_abs_ps(x1)));
  const float d = amax / 127.0f;
  const float inv_d = d != 0.0f ? 1.0f / d : 0.0f;
  y->d = static_cast<uint16_t>(_cvtss_sh(d, _MM_FROUND_TO_NEAREST_INT));
  const __m512 inv = _mm512_set1_ps(inv_d);
  const __m512 half = _mm512_set1_ps(0.5f), one = _mm512_set1_ps(1.0f);
  const __m512i sign_bit = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  for (int h = 0; h < 2; ++h) {
    const __m512 v = _mm512_mul_ps(h ? x1 : x0, inv);
    const __m512 t = _mm512_roundscale_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __mmask16 away = _mm512_cmp_ps_mask(_mm512_abs_ps(_mm512_sub_ps(v, t)), half, _CMP_GE_OQ);
    const __m512 signed_one = _mm512_castsi512_ps(_mm512_or_si512(
        _mm512_and_si512(_mm512_castps_si512(v), sign_bit), _mm512_castps_si512(one)));
    const __m512 q = _mm512_mask_add_ps(t, away, t, signed_one);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y->qs + 16 * h),
                     _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(q)));
  }
}

}  // namespace

void QuantizeQ8_0Avx512(const float* x, BlockQ8_0* y, size_t n_blocks) {
  for (size_t b = 0; b < n_blocks; ++b) QuantizeBlock(x + b * kQ8_0BlockSize, y + b);
}

void GemvQ8_0Avx512(const BlockQ8_0* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t n_blocks, float* y) {
  pair_tile::Gemv<Q8_0Pairs>(w, row_stride, rows, x, n_blocks, y);
}

void GemmQ8_0Avx512(const BlockQ8_0* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                     size_t n_blocks, float* y, size_t y_stride) {
  pair_tile::Gemm<Q8_0Pairs>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
