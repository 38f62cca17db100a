// AVX-512 Q8_0 activation quantizer and VNNI Q8_0 x Q8_0 gemv/gemm (vpdpbusd per block).
#include <immintrin.h>

#include "kernels/q8_0/q8_0_kernels.h"

namespace cpubrrr {
namespace {

// vpdpbusd multiplies unsigned by signed bytes, so weights get 128 added (xor of the sign
// bit); the tile subtracts 128 * sum(x) per lane group once per activation block, shared
// by every row of the tile.
inline __m256i LoadWeightsPlus128(const BlockQ8_0& b, __m256i offset) {
  return _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs)), offset);
}

// Returns fp16 bits h as float in all 8 lanes.
inline __m256 BroadcastFp16(uint16_t h) {
  return _mm256_cvtph_ps(_mm_set1_epi16(static_cast<short>(h)));
}

// Returns the sum of the 8 lanes of v.
inline float SumLanes(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Blocks per prefetch: a cache line holds 64 / sizeof(block) blocks.
constexpr size_t kPrefetchEvery = 64 / sizeof(BlockQ8_0);

// Computes the R x T tile y[t * y_stride + r] = dot(row r, token t): each weight block is
// loaded once and used by T tokens, each activation block loaded once for R rows. Per
// block and lane: an int32 partial dot, converted and added with one FMA scaled by
// d_w * d_x.
// Every kPrefetchEvery blocks (one 64-byte line or more) the tile prefetches the same
// position in the next R rows: a row is a short stream (3 KiB at d = 2880), too short
// for the hardware prefetcher to ramp up before it ends. Prefetching past the matrix
// end is harmless (prefetches never fault).
// The loops over r < R and t < T are unrolled so the accumulators live in registers.
template <int R, int T>
void Tile(const BlockQ8_0* w, size_t row_stride, const BlockQ8_0* x, size_t x_stride,
          size_t n_blocks, float* y, size_t y_stride) {
  const __m256i offset = _mm256_set1_epi8(static_cast<char>(0x80));
  __m256 acc[R][T];
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int t = 0; t < T; ++t) acc[r][t] = _mm256_setzero_ps();
  }
  for (size_t b = 0; b < n_blocks; ++b) {
    if (b % kPrefetchEvery == 0) {
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        _mm_prefetch(reinterpret_cast<const char*>(w + (r + R) * row_stride + b), _MM_HINT_T0);
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
      dx[t] = BroadcastFp16(xb.d);
    }
    #pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const BlockQ8_0& wb = w[r * row_stride + b];
      const __m256i wq = LoadWeightsPlus128(wb, offset);
      const __m256 s = BroadcastFp16(wb.d);
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
void Rows(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
          size_t x_stride, size_t n_blocks, float* y, size_t y_stride) {
  size_t r = 0;
  for (; r + R <= rows; r += R) {
    Tile<R, T>(w + r * row_stride, row_stride, x, x_stride, n_blocks, y + r, y_stride);
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
  Rows<kGemvRows, 1>(w, row_stride, rows, x, 0, n_blocks, y, 0);
}

void GemmQ8_0Avx512(const BlockQ8_0* w, size_t row_stride, size_t rows,
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

}  // namespace cpubrrr
