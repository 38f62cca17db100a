// AVX2 Q8_0 x Q8_0 gemv and gemm in ggml's AVX2 order: per row and token, one accumulator
// over the blocks, then the horizontal sum. The gemm reads each weight block once for up
// to four tokens and gives each token the gemv's bits.
#include <immintrin.h>

#include "kernels/tiles/avx2_dot-inl.h"
#include "kernels/tiles/token_tiles.h"
#include "kernels/q8_0/q8_0_kernels.h"

namespace cpubrrr {
namespace {

inline __m256i Quants(const BlockQ8_0& b) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs)); }

// y[t * y_stride] = dot(row, x + t * x_stride) for t < T.
template <int T>
void RowTile(const BlockQ8_0* row, const BlockQ8_0* x, size_t x_stride, size_t n_blocks, float* y,
             size_t y_stride) {
  __m256 acc[T];
  for (int t = 0; t < T; ++t) acc[t] = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const __m256i w = Quants(row[b]);
    const float dw = avx2::HalfToFloat(row[b].d);
    for (int t = 0; t < T; ++t) {
      const BlockQ8_0& xb = x[t * x_stride + b];
      acc[t] = _mm256_fmadd_ps(_mm256_set1_ps(dw * avx2::HalfToFloat(xb.d)),
                               _mm256_cvtepi32_ps(avx2::SignedDot(w, Quants(xb))), acc[t]);
    }
  }
  for (int t = 0; t < T; ++t) y[t * y_stride] = avx2::SumLanes(acc[t]);
}

// RowTile<T>, as the token-tile loops call it.
constexpr auto kRowTile = [](auto tokens, auto... args) { RowTile<decltype(tokens)::value>(args...); };

}  // namespace

void Q8_0GemvAvx2(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x, size_t n_blocks, float* y) {
  GemvByRows(w, row_stride, rows, x, n_blocks, y, kRowTile);
}

void Q8_0GemmAvx2(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x, size_t x_stride,
                  size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  // Tiles of 4 tokens share each decoded weight block.
  GemmByTokenTiles<4>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride, kRowTile);
}

}  // namespace cpubrrr
