// Highway gemm for the K-quants with 6-bit scales and mins (Q4_K, Q5_K) against Q8_K: each
// block decoded once per row to int16 scaled weights, then one widening dot per token, in
// the oracles' order. Include per target from a foreach_target translation unit.
#if defined(CPUBRRR_KERNELS_KQUANT_SCALED_GEMM_HWY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CPUBRRR_KERNELS_KQUANT_SCALED_GEMM_HWY_INL_H_
#undef CPUBRRR_KERNELS_KQUANT_SCALED_GEMM_HWY_INL_H_
#else
#define CPUBRRR_KERNELS_KQUANT_SCALED_GEMM_HWY_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/kquant/q4_k_scales.h"
#include "quant/fp16.h"
#include "quant/q8_k.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {

// At most 16 int16 lanes, so a vector never straddles two 32-element sub-blocks and the
// widening multiply-add has an overload on every target (full vectors on AVX2/AVX3).
using ScaledD16 = hwy::HWY_NAMESPACE::CappedTag<int16_t, 16>;

// Returns msum = sum_j m_j * (sum of x's quants in sub-block j) for mins bytes `m`.
inline int32_t MinsDot(uint64_t m, const BlockQ8K& x) {
  int32_t msum = 0;
  for (int j = 0; j < 8; ++j) {
    msum += static_cast<int32_t>((m >> (8 * j)) & 0xFF) * (x.bsums[2 * j] + x.bsums[2 * j + 1]);
  }
  return msum;
}

// Returns isum = sum_i w16[i] * x.qs[i] over one block.
inline int32_t ScaledDot(const int16_t* HWY_RESTRICT w16, const BlockQ8K& x) {
  namespace hn = hwy::HWY_NAMESPACE;
  const ScaledD16 d16;
  const hn::Repartition<int32_t, ScaledD16> d32;
  const hn::Rebind<int8_t, ScaledD16> d8;
  const size_t n = hn::Lanes(d16);
  auto sum0 = hn::Zero(d32), sum1 = hn::Zero(d32);
  for (size_t i = 0; i < kQ8KBlockSize; i += n) {
    const auto xq = hn::PromoteTo(d16, hn::LoadU(d8, x.qs + i));
    sum0 = hn::ReorderWidenMulAccumulate(d32, hn::LoadU(d16, w16 + i), xq, sum0, sum1);
  }
  return hn::GetLane(hn::SumOfLanes(d32, hn::Add(sum0, sum1)));
}

// Computes y[t * y_stride + r] for all tokens; `decode(block, unpacked scales, w16)` writes
// a block's 256 scaled weights, and y accumulates the float steps in block order.
template <typename Block, typename Decode>
void ScaledMinGemm(const Block* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride,
                   Decode decode) {
  HWY_ALIGN int16_t w16[kQ8KBlockSize];
  for (size_t r = 0; r < rows; ++r) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const Block& blk = w[r * row_stride + b];
      const float d = Fp16ToFp32(blk.d);
      const float dmin = Fp16ToFp32(blk.dmin);
      const Q4KScalesMins u = UnpackQ4KScales(blk.scales);
      decode(blk, u, w16);
      for (size_t t = 0; t < n_tokens; ++t) {
        const BlockQ8K& xb = x[t * x_stride + b];
        const int32_t msum = MinsDot(u.m, xb);
        const int32_t isum = ScaledDot(w16, xb);
        float& out = y[t * y_stride + r];
        const float prev = b == 0 ? 0.0f : out;
        out = prev + xb.d * (d * static_cast<float>(isum) - dmin * static_cast<float>(msum));
      }
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#endif  // CPUBRRR_KERNELS_KQUANT_SCALED_GEMM_HWY_INL_H_
