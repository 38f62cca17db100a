// AVX2 Q8_0 x Q8_0 gemv and gemm in ggml's AVX2 order: per row and token, one accumulator
// over the blocks, then the horizontal sum. The gemv runs four rows at once (four
// independent chains) and prefetches the next four rows' blocks. The gemm of fewer than
// kQ8_0Avx2LaneTileFrom tokens reads each weight block once for all of them and gives each
// token the gemv's bits; from there on the lane tile (q8_0_gemm_avx2.cc) gives the
// oracle's. Built twice: the Avx2 functions and, with AVX-VNNI, the AvxVnni ones (vpdpbusd
// in place of vpmaddubsw and vpmaddwd: the same sums, so the same bits).
#include <immintrin.h>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/prefetch.h"
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

// y[r] = dot(row r, x) for the R rows at w, row_stride blocks apart, each row the bits of
// RowTile<1>. Each block pair asks for the same pair of the rows R on: one cold matrix is
// one stream, which the hardware prefetcher alone follows too late on some cores.
template <int R>
void RowsTile(const BlockQ8_0* w, size_t row_stride, const BlockQ8_0* x, size_t n_blocks, float* y) {
  __m256 acc[R];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_ps();
  const size_t ahead = R * row_stride;
  for (size_t b = 0; b < n_blocks; ++b) {
    if (b % 2 == 0) {
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) PrefetchSpan<2 * sizeof(BlockQ8_0)>(w + r * row_stride + b + ahead);
    }
    const __m256i xq = Quants(x[b]);
    const float dx = avx2::HalfToFloat(x[b].d);
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const BlockQ8_0& wb = w[r * row_stride + b];
      acc[r] = _mm256_fmadd_ps(_mm256_set1_ps(avx2::HalfToFloat(wb.d) * dx),
                               _mm256_cvtepi32_ps(avx2::SignedDot(Quants(wb), xq)), acc[r]);
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) y[r] = avx2::SumLanes(acc[r]);
}

// RowTile<T>, as the token-tile loops call it.
constexpr auto kRowTile = [](auto tokens, auto... args) { RowTile<decltype(tokens)::value>(args...); };

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Q8_0Gemv)(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                                        size_t n_blocks, float* y) {
  constexpr int kRows = 4;
  size_t r = 0;
  for (; r + kRows <= rows; r += kRows) RowsTile<kRows>(w + r * row_stride, row_stride, x, n_blocks, y + r);
  WithCount<kRows - 1>(rows - r, [&](auto count) {
    RowsTile<decltype(count)::value>(w + r * row_stride, row_stride, x, n_blocks, y + r);
  });
}

void CPUBRRR_AVX2_VARIANT_NAME(Q8_0Gemm)(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                                        size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  if (n_tokens >= kQ8_0Avx2LaneTileFrom) {
    CPUBRRR_AVX2_VARIANT_NAME(Q8_0LaneGemm)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
    return;
  }
  GemmByTokenTiles<kQ8_0Avx2LaneTileFrom - 1>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride,
                                              kRowTile);
}

}  // namespace cpubrrr
