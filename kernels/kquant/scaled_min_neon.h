// aarch64 NEON dotprod gemv and gemm for the K-quants with 6-bit scales and mins (Q4_K,
// Q5_K) against Q8_K, in the oracles' order; each format supplies its block unpacker.
// Include only from translation units built for NEON dotprod.
#ifndef CPUBRRR_KERNELS_KQUANT_SCALED_MIN_NEON_H_
#define CPUBRRR_KERNELS_KQUANT_SCALED_MIN_NEON_H_

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "kernels/kquant/q4_k_scales.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// One block of one row unpacked for sdot: q[2j + i] holds elements 16i .. 16i + 16 of
// sub-block j as unsigned quants; u holds the scales and mins of sub-blocks 0..7.
struct ScaledMinNeonBlock {
  int8x16_t q[16];
  Q4KScalesMins u;
  float d, dmin;
};

// Returns x.d * (d * isum - dmin * msum) for one block, the oracle's float step.
inline float ScaledMinBlockTerm(const ScaledMinNeonBlock& w, const BlockQ8K& x) {
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

// y[r] = dot(row r, x), blocks unpacked by `load(block)`.
template <typename Block, typename Load>
void ScaledMinGemvNeon(const Block* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                       size_t n_blocks, float* y, Load load) {
  for (size_t r = 0; r < rows; ++r) {
    float sum = 0;
    for (size_t b = 0; b < n_blocks; ++b) sum += ScaledMinBlockTerm(load(w[r * row_stride + b]), x[b]);
    y[r] = sum;
  }
}

// Each block is unpacked once per row and used by every token; y carries the float sums
// between blocks, so the additions keep the oracle's order.
template <typename Block, typename Load>
void ScaledMinGemmNeon(const Block* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                       size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                       size_t y_stride, Load load) {
  for (size_t r = 0; r < rows; ++r) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const ScaledMinNeonBlock wb = load(w[r * row_stride + b]);
      for (size_t t = 0; t < n_tokens; ++t) {
        float& out = y[t * y_stride + r];
        out = (b == 0 ? 0.0f : out) + ScaledMinBlockTerm(wb, x[t * x_stride + b]);
      }
    }
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_KQUANT_SCALED_MIN_NEON_H_
