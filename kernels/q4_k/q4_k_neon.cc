// aarch64 NEON dotprod Q4_K x Q8_K gemv and gemm (sdot on nibbles), bit-exact with the oracle.
#include "kernels/q4_k/q4_k_neon.h"

#include <arm_neon.h>

#include "kernels/kquant/q4_k_scales.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// One block of one row unpacked for sdot: q[4p + 2h + i] holds elements 64p + 32h + 16i ..
// +16 (h = 0: low nibbles of qs[32p ..], h = 1: high nibbles); sc and m are the scales and
// mins of sub-blocks 0..7 (one byte each).
struct Q4Block {
  int8x16_t q[16];
  Q4KScalesMins u;
  float d, dmin;
};

inline Q4Block LoadBlock(const BlockQ4K& b) {
  Q4Block out;
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

// Returns x.d * (d * isum - dmin * msum) for one block, the oracle's float step.
inline float BlockTerm(const Q4Block& w, const BlockQ8K& x) {
  int32x4_t acc = vdupq_n_s32(0);
  for (int j = 0; j < 8; ++j) {
    int32x4_t dot = vdotq_s32(vdupq_n_s32(0), w.q[2 * j], vld1q_s8(x.qs + 32 * j));
    dot = vdotq_s32(dot, w.q[2 * j + 1], vld1q_s8(x.qs + 32 * j + 16));
    acc = vmlaq_n_s32(acc, dot, static_cast<int32_t>((w.u.sc >> (8 * j)) & 0xFF));
  }
  const int32_t isum = vaddvq_s32(acc);
  // Sums of 32 activation quants per sub-block (pairs of bsums) times the 6-bit mins.
  const int16x8_t pairs = vpaddq_s16(vld1q_s16(x.bsums), vld1q_s16(x.bsums + 8));
  const int16x8_t mins = vreinterpretq_s16_u16(vmovl_u8(vcreate_u8(w.u.m)));
  const int32x4_t m = vmlal_high_s16(vmull_s16(vget_low_s16(mins), vget_low_s16(pairs)), mins, pairs);
  const int32_t msum = vaddvq_s32(m);
  return x.d * (w.d * static_cast<float>(isum) - w.dmin * static_cast<float>(msum));
}

}  // namespace

void Q4KGemvNeon(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; ++r) {
    float sum = 0;
    for (size_t b = 0; b < n_blocks; ++b) sum += BlockTerm(LoadBlock(w[r * row_stride + b]), x[b]);
    y[r] = sum;
  }
}

void Q4KGemmNeon(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  // Each block is unpacked once per row and used by every token; y carries the float
  // sums between blocks, so the additions keep the oracle's order.
  for (size_t r = 0; r < rows; ++r) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const Q4Block wb = LoadBlock(w[r * row_stride + b]);
      for (size_t t = 0; t < n_tokens; ++t) {
        float& out = y[t * y_stride + r];
        out = (b == 0 ? 0.0f : out) + BlockTerm(wb, x[t * x_stride + b]);
      }
    }
  }
}

}  // namespace cpubrrr
