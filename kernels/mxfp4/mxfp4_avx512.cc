// AVX-512 VNNI MXFP4 x Q8_0 gemv/gemm: nibble lookup with vpshufb, vpdpbusd per block.
#include <immintrin.h>

#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"

namespace cpubrrr {
namespace {

// vpdpbusd multiplies unsigned by signed bytes, so the lookup yields each doubled E2M1
// value plus 128 (116..140); the tile subtracts 128 * sum(x) per lane group once per
// activation block, shared by every row of the tile.
alignas(32) constexpr uint8_t kCodePlus128[32] = {
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116,
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116};

// Returns the 32 weights of block `b` plus 128 as bytes: elements 0..15 (low nibbles)
// in the low 128-bit lane, 16..31 (high nibbles) in the high lane, matching x's order.
inline __m256i DecodeBlock(const BlockMxfp4& b, __m256i lut, __m256i low4) {
  const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.qs));
  const __m256i both =
      _mm256_inserti128_si256(_mm256_castsi128_si256(q), _mm_srli_epi16(q, 4), 1);
  return _mm256_shuffle_epi8(lut, _mm256_and_si256(both, low4));
}

// Returns the sum of the 8 lanes of v.
inline float SumLanes(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Blocks per prefetch: a cache line holds 64 / sizeof(block) blocks.
constexpr size_t kPrefetchEvery = 64 / sizeof(BlockMxfp4);

// Computes the R x T tile y[t * y_stride + r] = dot(row r, token t): each weight block is
// decoded once and used by T tokens, each activation block loaded once for R rows. Per
// block and lane: an int32 partial dot, converted and added with one FMA scaled by
// 2^(e-128) * d_x.
// Block b of row r is w[r * row_step + b * block_step]: (row_stride, 1) for the contract's
// row-major layout, (1, R) for rows interleaved per block (RepackMxfp4Rows).
// With prefetch_ahead != 0, every kPrefetchEvery blocks (one 64-byte line or more) the
// tile prefetches each row's block prefetch_ahead blocks further on; row-major callers
// pass R * row_stride, the same position in the next R rows: a row is a short stream
// (1.5 KiB at d = 2880), too short for the hardware prefetcher to ramp up before it ends.
// Prefetching past the matrix end is harmless (prefetches never fault).
// The loops over r < R and t < T are unrolled so the accumulators live in registers.
template <int R, int T>
void Tile(const BlockMxfp4* w, size_t row_step, size_t block_step, size_t prefetch_ahead,
          const BlockQ8_0* x, size_t x_stride, size_t n_blocks, float* y, size_t y_stride) {
  const __m256i lut = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCodePlus128));
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i offset = _mm256_set1_epi8(static_cast<char>(0x80));
  __m256 acc[R][T];
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int t = 0; t < T; ++t) acc[r][t] = _mm256_setzero_ps();
  }
  for (size_t b = 0; b < n_blocks; ++b) {
    if (prefetch_ahead != 0 && b % kPrefetchEvery == 0) {
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        const BlockMxfp4* ahead = w + r * row_step + b * block_step + prefetch_ahead;
        _mm_prefetch(reinterpret_cast<const char*>(ahead), _MM_HINT_T0);
      }
    }
    __m256i xq[T], neg_offset[T];
    __m256 dx[T];
    #pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      const BlockQ8_0& xb = x[t * x_stride + b];
      xq[t] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb.qs));
      neg_offset[t] = _mm256_sub_epi32(
          _mm256_setzero_si256(), _mm256_dpbusd_epi32(_mm256_setzero_si256(), offset, xq[t]));
      dx[t] = _mm256_cvtph_ps(_mm_set1_epi16(static_cast<short>(xb.d)));
    }
    #pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const BlockMxfp4& wb = w[r * row_step + b * block_step];
      const __m256i wq = DecodeBlock(wb, lut, low4);
      const __m256 s = _mm256_set1_ps(kE8m0Half.v[wb.e]);
      #pragma GCC unroll 8
      for (int t = 0; t < T; ++t) {
        const __m256i dot = _mm256_dpbusd_epi32(neg_offset[t], wq, xq[t]);
        acc[r][t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot), _mm256_mul_ps(s, dx[t]), acc[r][t]);
      }
    }
  }
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int t = 0; t < T; ++t) y[t * y_stride + r] = SumLanes(acc[r][t]);
  }
}

// Runs Tile<R, T> over all rows in steps of R, finishing with smaller row tiles.
template <int R, int T>
void Rows(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
          size_t x_stride, size_t n_blocks, float* y, size_t y_stride) {
  size_t r = 0;
  for (; r + R <= rows; r += R) {
    Tile<R, T>(w + r * row_stride, row_stride, 1, R * row_stride, x, x_stride, n_blocks, y + r,
               y_stride);
  }
  if constexpr (R > 1) {
    Rows<R - 1, T>(w + r * row_stride, row_stride, rows - r, x, x_stride, n_blocks, y + r,
                   y_stride);
  }
}

// Row tile of the gemv: four rows share each activation block load.
constexpr int kGemvRows = 4;
// Gemm tile: 2 rows x 4 tokens keep 8 accumulators plus 4 activation blocks (with their
// offsets and scales) in the 32 vector registers.
constexpr int kGemmRows = 2;
constexpr int kGemmTokens = 4;

}  // namespace

void GemvMxfp4Avx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t n_blocks, float* y) {
  Rows<kGemvRows, 1>(w, row_stride, rows, x, 0, n_blocks, y, 0);
}

void GemmMxfp4Avx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                     size_t n_blocks, float* y, size_t y_stride) {
  size_t t = 0;
  for (; t + kGemmTokens <= n_tokens; t += kGemmTokens) {
    Rows<kGemmRows, kGemmTokens>(w, row_stride, rows, x + t * x_stride, x_stride, n_blocks,
                                 y + t * y_stride, y_stride);
  }
  const BlockQ8_0* xt = x + t * x_stride;
  float* yt = y + t * y_stride;
  switch (n_tokens - t) {
    case 3: Rows<kGemmRows, 3>(w, row_stride, rows, xt, x_stride, n_blocks, yt, y_stride); break;
    case 2: Rows<kGemmRows, 2>(w, row_stride, rows, xt, x_stride, n_blocks, yt, y_stride); break;
    case 1: Rows<kGemvRows, 1>(w, row_stride, rows, xt, x_stride, n_blocks, yt, y_stride); break;
    default: break;
  }
}

void GemvMxfp4RepackedAvx512(const BlockMxfp4* packed, size_t rows, const BlockQ8_0* x,
                             size_t n_blocks, float* y) {
  constexpr int R = kMxfp4RepackRows;
  const size_t group_blocks = R * n_blocks;
  size_t r = 0;
  for (; r + R <= rows; r += R, packed += group_blocks) {
    Tile<R, 1>(packed, 1, R, 0, x, 0, n_blocks, y + r, 0);
  }
  if (r < rows) {
    float tail[R];
    Tile<R, 1>(packed, 1, R, 0, x, 0, n_blocks, tail, 0);
    for (size_t i = 0; r + i < rows; ++i) y[r + i] = tail[i];
  }
}

}  // namespace cpubrrr
