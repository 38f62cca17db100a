// aarch64 NEON dotprod Q6_K x Q8_K gemv and gemm (sdot on q - 32), bit-exact with the oracle.
#include "kernels/q6_k/q6_k_neon.h"

#include <arm_neon.h>

#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// One block of one row unpacked for sdot: q[s] holds q - 32 (-32..31) of sub-block s
// (elements 16s .. 16s+16).
struct Q6Block {
  int8x16_t q[16];
  float d;
};

inline Q6Block LoadBlock(const BlockQ6K& b) {
  Q6Block out;
  const uint8x16_t low4 = vdupq_n_u8(0x0F), low2 = vdupq_n_u8(3);
  const int8x16_t bias = vdupq_n_s8(32);
  for (int h = 0; h < 2; ++h) {
    for (int i = 0; i < 2; ++i) {  // l in 16i .. 16i+16 of the half's 32 columns
      const uint8x16_t a = vld1q_u8(b.ql + 64 * h + 16 * i);
      const uint8x16_t c = vld1q_u8(b.ql + 64 * h + 32 + 16 * i);
      const uint8x16_t hb = vld1q_u8(b.qh + 32 * h + 16 * i);
      const uint8x16_t q[4] = {
          vorrq_u8(vandq_u8(a, low4), vshlq_n_u8(vandq_u8(hb, low2), 4)),
          vorrq_u8(vandq_u8(c, low4), vshlq_n_u8(vandq_u8(vshrq_n_u8(hb, 2), low2), 4)),
          vorrq_u8(vshrq_n_u8(a, 4), vshlq_n_u8(vandq_u8(vshrq_n_u8(hb, 4), low2), 4)),
          vorrq_u8(vshrq_n_u8(c, 4), vshlq_n_u8(vshrq_n_u8(hb, 6), 4)),
      };
      // Element 128h + 32k + 16i + lane is in sub-block 8h + 2k + i.
      for (int k = 0; k < 4; ++k) out.q[8 * h + 2 * k + i] = vsubq_s8(vreinterpretq_s8_u8(q[k]), bias);
    }
  }
  out.d = Fp16ToFp32(b.d);
  return out;
}

// Returns x.d * (d * isum) for one block, the oracle's float step.
inline float BlockTerm(const Q6Block& w, const BlockQ6K& b, const BlockQ8K& x) {
  int32x4_t acc = vdupq_n_s32(0);
  for (int s = 0; s < 16; ++s) {
    const int32x4_t dot = vdotq_s32(vdupq_n_s32(0), w.q[s], vld1q_s8(x.qs + 16 * s));
    acc = vmlaq_n_s32(acc, dot, b.scales[s]);
  }
  return x.d * (w.d * static_cast<float>(vaddvq_s32(acc)));
}

}  // namespace

void Q6KGemvNeon(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; ++r) {
    float sum = 0;
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ6K& blk = w[r * row_stride + b];
      sum += BlockTerm(LoadBlock(blk), blk, x[b]);
    }
    y[r] = sum;
  }
}

void Q6KGemmNeon(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  // Each block is unpacked once per row and used by every token; y carries the float
  // sums between blocks, so the additions keep the oracle's order.
  for (size_t r = 0; r < rows; ++r) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ6K& blk = w[r * row_stride + b];
      const Q6Block wb = LoadBlock(blk);
      for (size_t t = 0; t < n_tokens; ++t) {
        float& out = y[t * y_stride + r];
        out = (b == 0 ? 0.0f : out) + BlockTerm(wb, blk, x[t * x_stride + b]);
      }
    }
  }
}

}  // namespace cpubrrr
