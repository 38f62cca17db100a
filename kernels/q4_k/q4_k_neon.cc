// aarch64 NEON dotprod Q4_K x Q8_K gemv and gemm (sdot on nibbles), bit-exact with the oracle.
#include "kernels/q4_k/q4_k_neon.h"

#include <arm_neon.h>

#include "kernels/kquant/scaled_min_neon.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

ScaledMinNeonBlock LoadBlock(const BlockQ4K& b) {
  ScaledMinNeonBlock out;
  const uint8x16_t low4 = vdupq_n_u8(0x0F);
  for (int p = 0; p < 4; ++p) {
    for (int i = 0; i < 2; ++i) {
      const uint8x16_t v = vld1q_u8(b.qs + 32 * p + 16 * i);
      out.q[4 * p + i] = vreinterpretq_s8_u8(vandq_u8(v, low4));
      out.q[4 * p + 2 + i] = vreinterpretq_s8_u8(vshrq_n_u8(v, 4));
    }
  }
  out.u = UnpackQ4KScales(b.scales);
  out.d = Fp16ToFp32(b.d);
  out.dmin = Fp16ToFp32(b.dmin);
  return out;
}

}  // namespace

void Q4KGemvNeon(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y) {
  ScaledMinGemvNeon(w, row_stride, rows, x, n_blocks, y, LoadBlock);
}

void Q4KGemmNeon(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  ScaledMinGemmNeon(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride, LoadBlock);
}

}  // namespace cpubrrr
