// AVX2 MXFP4 x Q8_0 gemv and gemm in ggml's AVX2 order: per row and token, blocks in
// pairs on two accumulators (nibbles looked up with vpshufb), an odd last block added in
// scalar code. The gemm of fewer than kMxfp4Avx2LaneTileFrom tokens decodes each weight
// block once for all of them and gives each token the gemv's bits; from there on the lane
// tile (mxfp4_gemm_avx2.cc) gives the oracle's. Built twice: the Avx2 functions and, with
// AVX-VNNI, the AvxVnni ones (vpdpbusd in the block dots: the same sums, the same bits).
#include <immintrin.h>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/tiles/avx2_dot-inl.h"
#include "kernels/tiles/token_tiles.h"
#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"

namespace cpubrrr {
namespace {

// Doubled E2M1 values by code (MODEL_SPEC.md section 1); kE8m0Half halves them back.
alignas(16) constexpr int8_t kDoubled[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// The 32 doubled values of a block: low nibbles (elements 0-15), then high ones (16-31).
inline __m256i Weights(const BlockMxfp4& b, __m128i table, __m128i low4) {
  const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.qs));
  const __m128i lo = _mm_shuffle_epi8(table, _mm_and_si128(q, low4));
  const __m128i hi = _mm_shuffle_epi8(table, _mm_and_si128(_mm_srli_epi16(q, 4), low4));
  return _mm256_set_m128i(hi, lo);
}

inline __m256i Quants(const BlockQ8_0& x) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.qs)); }

inline float Scale(const BlockMxfp4& w, const BlockQ8_0& x) { return avx2::HalfToFloat(x.d) * kE8m0Half.v[w.e]; }

// y[t * y_stride] = dot(row, x + t * x_stride) for t < T.
template <int T>
void RowTile(const BlockMxfp4* row, const BlockQ8_0* x, size_t x_stride, size_t n_blocks, float* y,
             size_t y_stride) {
  const __m128i table = _mm_load_si128(reinterpret_cast<const __m128i*>(kDoubled));
  const __m128i low4 = _mm_set1_epi8(0x0F);
  __m256 even[T], odd[T];
  for (int t = 0; t < T; ++t) even[t] = odd[t] = _mm256_setzero_ps();
  size_t b = 0;
  for (; b + 1 < n_blocks; b += 2) {
    const __m256i w0 = Weights(row[b], table, low4), w1 = Weights(row[b + 1], table, low4);
    for (int t = 0; t < T; ++t) {
      const BlockQ8_0* xt = x + t * x_stride;
      even[t] = _mm256_fmadd_ps(_mm256_set1_ps(Scale(row[b], xt[b])),
                                _mm256_cvtepi32_ps(avx2::SignedDot(w0, Quants(xt[b]))), even[t]);
      odd[t] = _mm256_fmadd_ps(_mm256_set1_ps(Scale(row[b + 1], xt[b + 1])),
                               _mm256_cvtepi32_ps(avx2::SignedDot(w1, Quants(xt[b + 1]))), odd[t]);
    }
  }
  for (int t = 0; t < T; ++t) {
    const BlockQ8_0* xt = x + t * x_stride;
    float sum = avx2::SumLanes(_mm256_add_ps(even[t], odd[t]));
    if (b < n_blocks) {
      int32_t isum = 0;
      for (int j = 0; j < 16; ++j) {
        isum += kDoubled[row[b].qs[j] & 0x0F] * xt[b].qs[j] + kDoubled[row[b].qs[j] >> 4] * xt[b].qs[j + 16];
      }
      sum += Scale(row[b], xt[b]) * static_cast<float>(isum);
    }
    y[t * y_stride] = sum;
  }
}

// RowTile<1>, as the gemv's row loop calls it.
constexpr auto kRowTile = [](auto tokens, auto... args) { RowTile<decltype(tokens)::value>(args...); };

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Mxfp4Gemv)(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                                      size_t n_blocks, float* y) {
  GemvByRows(w, row_stride, rows, x, n_blocks, y, kRowTile);
}

void CPUBRRR_AVX2_VARIANT_NAME(Mxfp4Gemm)(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                                      size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  if (n_tokens >= kMxfp4Avx2LaneTileFrom) {
    CPUBRRR_AVX2_VARIANT_NAME(Mxfp4LaneGemm)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
    return;
  }
  WithCount<kMxfp4Avx2LaneTileFrom - 1>(n_tokens, [&](auto tokens) {
    for (size_t r = 0; r < rows; ++r) {
      RowTile<decltype(tokens)::value>(w + r * row_stride, x, x_stride, n_blocks, y + r, y_stride);
    }
  });
}

}  // namespace cpubrrr
