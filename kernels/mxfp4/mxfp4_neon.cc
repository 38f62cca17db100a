// aarch64 NEON dotprod MXFP4 x Q8_0 gemv/gemm: nibble lookup with tbl, sdot per block.
#include <arm_neon.h>

#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"

namespace cpubrrr {
namespace {

// Doubled E2M1 values by code (MODEL_SPEC.md section 1), the tbl lookup table.
alignas(16) constexpr int8_t kValues[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// Computes the R x T tile y[t * y_stride + r] = dot(row r, token t): each weight block is
// decoded once and used by T tokens, each activation block loaded once for R rows. Per
// block: two sdot into four int32 partial lanes, converted and added with one FMA scaled
// by 2^(e-128) * d_x. The loops over r and t are unrolled to keep accumulators in
// registers (R * T + 2 * T of the 32).
template <int R, int T>
void Tile(const BlockMxfp4* w, size_t row_stride, const BlockQ8_0* x, size_t x_stride,
          size_t n_blocks, float* y, size_t y_stride) {
  const int8x16_t table = vld1q_s8(kValues);
  const uint8x16_t low4 = vdupq_n_u8(0x0F);
  float32x4_t acc[R][T];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) acc[r][t] = vdupq_n_f32(0.0f);
  }
  for (size_t b = 0; b < n_blocks; ++b) {
    int8x16_t x_lo[T], x_hi[T];
    float dx[T];
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      const BlockQ8_0& xb = x[t * x_stride + b];
      x_lo[t] = vld1q_s8(xb.qs);
      x_hi[t] = vld1q_s8(xb.qs + 16);
      dx[t] = vgetq_lane_f32(vcvt_f32_f16(vreinterpret_f16_u16(vdup_n_u16(xb.d))), 0);
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const BlockMxfp4& wb = w[r * row_stride + b];
      const uint8x16_t q = vld1q_u8(wb.qs);
      const int8x16_t w_lo = vqtbl1q_s8(table, vandq_u8(q, low4));
      const int8x16_t w_hi = vqtbl1q_s8(table, vshrq_n_u8(q, 4));
      const float s = kE8m0Half.v[wb.e];
#pragma GCC unroll 8
      for (int t = 0; t < T; ++t) {
        const int32x4_t dot = vdotq_s32(vdotq_s32(vdupq_n_s32(0), w_lo, x_lo[t]), w_hi, x_hi[t]);
        acc[r][t] = vfmaq_n_f32(acc[r][t], vcvtq_f32_s32(dot), s * dx[t]);
      }
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) y[t * y_stride + r] = vaddvq_f32(acc[r][t]);
  }
}

// Runs Tile<R, T> over all rows in steps of R, finishing with smaller row tiles.
template <int R, int T>
void Rows(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
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
// Gemm tile: 4 rows x 4 tokens: 16 accumulators and 8 activation registers of the 32.
constexpr int kGemmRows = 4;
constexpr int kGemmTokens = 4;

}  // namespace

void Mxfp4GemvNeon(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                   size_t n_blocks, float* y) {
  Rows<kGemvRows, 1>(w, row_stride, rows, x, 0, n_blocks, y, 0);
}

void Mxfp4GemmNeon(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                   size_t y_stride) {
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
