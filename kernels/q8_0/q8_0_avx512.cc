// AVX-512 Q8_0 activation quantizer and VNNI Q8_0 x Q8_0 gemv on the shared pair tile (in
// ggml's x86 order; the gemm is in q8_0_gemm_avx512.cc).
#include <immintrin.h>

#include "kernels/tiles/pair_tile_avx512-inl.h"
#include "kernels/q8_0/q8_0_kernels.h"

namespace cpubrrr {
namespace {

// Decodes Q8_0 pairs: block b in the low 256 bits, b + 1 in the high (kBlocks). vpdpbusd
// multiplies unsigned by signed bytes, so weights get 128 added (xor of the sign bit); the
// pair tile removes it with the packed offsets.
struct Q8_0Pairs {
  using Block = BlockQ8_0;
  static constexpr pair_tile::LaneOrder kOrder = pair_tile::LaneOrder::kBlocks;
  static constexpr pair_tile::Accumulation kAccumulation = pair_tile::Accumulation::kOneChain8;
  // Each line asked for thrice: the cold gemv reads much faster, hot it runs slower
  // (research log).
  static constexpr bool kPrefetchThrice = true;
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

// Quantizes one block of 32 floats by the activation rule (q8_0_kernels.h): amax,
// d = amax / 127, q = x * (127 / amax) rounded to nearest even (0 when amax is 0).
inline void QuantizeBlock(const float* x, BlockQ8_0* y) {
  const __m512 x0 = _mm512_loadu_ps(x), x1 = _mm512_loadu_ps(x + 16);
  const float amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(x0), _mm512_abs_ps(x1)));
  y->d = static_cast<uint16_t>(_cvtss_sh(amax / 127.0f, _MM_FROUND_TO_NEAREST_INT));
  const __m512 scale = _mm512_set1_ps(amax != 0.0f ? 127.0f / amax : 0.0f);
  for (int h = 0; h < 2; ++h) {
    const __m512 q = _mm512_roundscale_ps(_mm512_mul_ps(h ? x1 : x0, scale),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y->qs + 16 * h),
                     _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(q)));
  }
}

}  // namespace

void QuantizeQ8_0Avx512(const float* x, BlockQ8_0* y, size_t n_blocks) {
  for (size_t b = 0; b < n_blocks; ++b) QuantizeBlock(x + b * kQ8_0BlockSize, y + b);
}

void Q8_0GemvAvx512(const BlockQ8_0* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t n_blocks, float* y) {
  pair_tile::Gemv<Q8_0Pairs>(w, row_stride, rows, x, n_blocks, y);
}

}  // namespace cpubrrr
