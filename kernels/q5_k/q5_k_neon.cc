// aarch64 NEON dotprod Q5_K x Q8_K gemv and gemm (sdot on 5-bit quants), bit-exact with the oracle.
#include "kernels/q5_k/q5_k_neon.h"

#include <arm_neon.h>

#include "kernels/kquant/scaled_min_neon.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

ScaledMinNeonBlock LoadBlock(const BlockQ5K& b) {
  ScaledMinNeonBlock out;
  const uint8x16_t low4 = vdupq_n_u8(0x0F);
  const uint8x16_t bit4 = vdupq_n_u8(0x10);
  const uint8x16_t qh[2] = {vld1q_u8(b.qh), vld1q_u8(b.qh + 16)};
  for (int p = 0; p < 4; ++p) {
    for (int i = 0; i < 2; ++i) {
      const uint8x16_t v = vld1q_u8(b.qs + 32 * p + 16 * i);
      // vtst gives 0xFF where the sub-block's qh bit is set; masked to 16, the fifth bit.
      const uint8x16_t h_lo = vandq_u8(vtstq_u8(qh[i], vdupq_n_u8(1u << (2 * p))), bit4);
      const uint8x16_t h_hi = vandq_u8(vtstq_u8(qh[i], vdupq_n_u8(2u << (2 * p))), bit4);
      out.q[4 * p + i] = vreinterpretq_s8_u8(vorrq_u8(vandq_u8(v, low4), h_lo));
      out.q[4 * p + 2 + i] = vreinterpretq_s8_u8(vorrq_u8(vshrq_n_u8(v, 4), h_hi));
    }
  }
  out.u = UnpackQ4KScales(b.scales);
  out.d = Fp16ToFp32(b.d);
  out.dmin = Fp16ToFp32(b.dmin);
  return out;
}

}  // namespace

void Q5KGemvNeon(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y) {
  ScaledMinGemvNeon(w, row_stride, rows, x, n_blocks, y, LoadBlock);
}

void Q5KGemmNeon(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  ScaledMinGemmNeon(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride, LoadBlock);
}

}  // namespace cpubrrr
