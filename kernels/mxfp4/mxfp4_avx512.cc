// AVX-512 VNNI MXFP4 x Q8_0 gemv in ggml's x86 order: two blocks per 512-bit register,
// nibbles looked up with vpshufb, on the shared pair tile; the gemm of a few tokens on the
// same tile, of more on the lane tile (mxfp4_gemm_avx512.cc).
#include <immintrin.h>

#include "kernels/common/few_tokens.h"
#include "kernels/tiles/pair_tile_avx512-inl.h"
#include "kernels/mxfp4/code_plus128.h"
#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"

namespace cpubrrr {
namespace {

// Decodes MXFP4 pairs: low nibbles of both blocks, then high nibbles (kHalves).
struct Mxfp4Pairs {
  using Block = BlockMxfp4;
  static constexpr pair_tile::LaneOrder kOrder = pair_tile::LaneOrder::kHalves;
  static constexpr pair_tile::Accumulation kAccumulation = pair_tile::Accumulation::kEvenOdd8;
  // Its compute barely keeps up with memory: repeated prefetches cost it (research log).
  static constexpr bool kPrefetchThrice = false;
  const __m512i lut = _mm512_load_si512(kMxfp4CodePlus128);
  const __m512i low4 = _mm512_set1_epi8(0x0F);

  __m512i Weights(const BlockMxfp4& b0, const BlockMxfp4* b1) const {
    const __m128i q0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b0.qs));
    const __m128i q1 = b1 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(b1->qs)) : _mm_setzero_si128();
    const __m256i q = _mm256_inserti128_si256(_mm256_castsi128_si256(q0), q1, 1);
    const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(q), _mm256_srli_epi16(q, 4), 1);
    return _mm512_shuffle_epi8(lut, _mm512_and_si512(both, low4));
  }
  // 2^(e-128): the lookup doubled the E2M1 values.
  __m512 Scale(const BlockMxfp4& b0, const BlockMxfp4* b1) const {
    return _mm512_mask_blend_ps(pair_tile::SecondBlockLanes(kOrder), _mm512_set1_ps(kE8m0Half.v[b0.e]),
                                _mm512_set1_ps(kE8m0Half.v[b1 ? b1->e : b0.e]));
  }
  float BlockScale(const BlockMxfp4& b) const { return kE8m0Half.v[b.e]; }
};

}  // namespace

void Mxfp4GemvAvx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t n_blocks, float* y) {
  pair_tile::Gemv<Mxfp4Pairs>(w, row_stride, rows, x, n_blocks, y);
}

void Mxfp4GemmAvx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                     size_t n_blocks, float* y, size_t y_stride) {
  if (n_tokens < Avx512LaneTileFrom()) {
    pair_tile::FewTokens<Mxfp4Pairs, kAvx512FewTokensMax>(w, row_stride, rows, x, x_stride,
                                                          n_tokens, n_blocks, y, y_stride);
  } else {
    Mxfp4LaneGemmAvx512(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
  }
}

}  // namespace cpubrrr
