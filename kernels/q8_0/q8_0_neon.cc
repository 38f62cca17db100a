// aarch64 NEON Q8_0 activation quantizer and dotprod Q8_0 x Q8_0 gemv/gemm (sdot per block).
#include <arm_neon.h>

#include "kernels/q8_0/q8_0_kernels.h"

namespace cpubrrr {
namespace {

// Returns fp16 bits h as float.
inline float Fp16Bits(uint16_t h) {
  return vgetq_lane_f32(vcvt_f32_f16(vreinterpret_f16_u16(vdup_n_u16(h))), 0);
}

// Computes the R x T tile y[t * y_stride + r] = dot(row r, token t): each weight block is
// loaded once and used by T tokens, each activation block loaded once for R rows. Per
// block: two sdot into four int32 partial lanes, converted and added with one FMA scaled
// by d_w * d_x. The loops over r and t are unrolled to keep accumulators in
// registers (R * T + 2 * T of the 32).
template <int R, int T>
void Tile(const BlockQ8_0* w, size_t row_stride, const BlockQ8_0* x, size_t x_stride,
          size_t n_blocks, float* y, size_t y_stride) {
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
      dx[t] = Fp16Bits(xb.d);
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const BlockQ8_0& wb = w[r * row_stride + b];
      const int8x16_t w_lo = vld1q_s8(wb.qs), w_hi = vld1q_s8(wb.qs + 16);
      const float s = Fp16Bits(wb.d);
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
// Gemm tile: 4 rows x 4 tokens: 16 accumulators and 8 activation registers of the 32.
constexpr int kGemmRows = 4;
constexpr int kGemmTokens = 4;

}  // namespace

// Quantizes by the activation rule (q8_0_kernels.h): amax, d = amax / 127; fcvtns rounds
// x * (127 / amax) to nearest with ties to even.
void QuantizeQ8_0Neon(const float* x, BlockQ8_0* y, size_t n_blocks) {
  for (size_t b = 0; b < n_blocks; ++b) {
    const float* xb = x + b * kQ8_0BlockSize;
    float32x4_t v[8];
    float32x4_t vmax = vdupq_n_f32(0.0f);
    for (int i = 0; i < 8; ++i) {
      v[i] = vld1q_f32(xb + 4 * i);
      vmax = vmaxq_f32(vmax, vabsq_f32(v[i]));
    }
    const float amax = vmaxvq_f32(vmax);
    const float d = amax / 127.0f;
    const float scale = amax != 0.0f ? 127.0f / amax : 0.0f;
    y[b].d = vget_lane_u16(vreinterpret_u16_f16(vcvt_f16_f32(vdupq_n_f32(d))), 0);
    for (int i = 0; i < 8; i += 2) {
      const int16x8_t q16 = vcombine_s16(vmovn_s32(vcvtnq_s32_f32(vmulq_n_f32(v[i], scale))),
                                         vmovn_s32(vcvtnq_s32_f32(vmulq_n_f32(v[i + 1], scale))));
      vst1_s8(y[b].qs + 4 * i, vmovn_s16(q16));
    }
  }
}

void Q8_0GemvNeon(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                   size_t n_blocks, float* y) {
  Rows<kGemvRows, 1>(w, row_stride, rows, x, 0, n_blocks, y, 0);
}

void Q8_0GemmNeon(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
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
