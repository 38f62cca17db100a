// Highway Q4_K x Q8_K gemv and gemm: int16 scaled weights, widening multiply-add, bit-exact.
#include "kernels/q4_k/q4_k_hwy.h"

#include "kernels/kquant/q4_k_scales.h"
#include "quant/fp16.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/q4_k/q4_k_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// At most 16 int16 lanes, so a vector never straddles two 32-element sub-blocks and the
// widening multiply-add has an overload on every target (full vectors on AVX2/AVX3).
using D16 = hn::CappedTag<int16_t, 16>;

// Writes w16[i] = sc_j * q_i (int16; at most 63 * 15) for the 256 weights of `b`, whose
// unpacked scales are `u`.
void DecodeBlock(const BlockQ4K& b, const Q4KScalesMins& u, int16_t* HWY_RESTRICT w16) {
  const D16 d16;
  const hn::RebindToUnsigned<D16> du16;
  const hn::Rebind<uint8_t, D16> du8;
  const size_t n = hn::Lanes(d16);
  for (int p = 0; p < 4; ++p) {
    const auto sc_lo = hn::Set(d16, static_cast<int16_t>((u.sc >> (16 * p)) & 0xFF));
    const auto sc_hi = hn::Set(d16, static_cast<int16_t>((u.sc >> (16 * p + 8)) & 0xFF));
    for (size_t i = 0; i < 32; i += n) {
      const auto q = hn::PromoteTo(du16, hn::LoadU(du8, b.qs + 32 * p + i));
      const auto lo = hn::BitCast(d16, hn::And(q, hn::Set(du16, 0x0F)));
      const auto hi = hn::BitCast(d16, hn::ShiftRight<4>(q));
      hn::StoreU(hn::Mul(lo, sc_lo), d16, w16 + 64 * p + i);
      hn::StoreU(hn::Mul(hi, sc_hi), d16, w16 + 64 * p + 32 + i);
    }
  }
}

// Returns msum = sum_j m_j * (sum of x's quants in sub-block j) for mins bytes `m`.
int32_t MinsDot(uint64_t m, const BlockQ8K& x) {
  int32_t msum = 0;
  for (int j = 0; j < 8; ++j) {
    msum += static_cast<int32_t>((m >> (8 * j)) & 0xFF) * (x.bsums[2 * j] + x.bsums[2 * j + 1]);
  }
  return msum;
}

// Returns isum = sum_i w16[i] * x.qs[i] over one block.
int32_t Q4KScaledDot(const int16_t* HWY_RESTRICT w16, const BlockQ8K& x) {
  const D16 d16;
  const hn::Repartition<int32_t, D16> d32;
  const hn::Rebind<int8_t, D16> d8;
  const size_t n = hn::Lanes(d16);
  auto sum0 = hn::Zero(d32), sum1 = hn::Zero(d32);
  for (size_t i = 0; i < kQ8KBlockSize; i += n) {
    const auto xq = hn::PromoteTo(d16, hn::LoadU(d8, x.qs + i));
    sum0 = hn::ReorderWidenMulAccumulate(d32, hn::LoadU(d16, w16 + i), xq, sum0, sum1);
  }
  return hn::GetLane(hn::SumOfLanes(d32, hn::Add(sum0, sum1)));
}

// Computes y[t * y_stride + r] for all tokens; each block is decoded once per row and
// used by every token, and y accumulates the float steps in block order.
void Gemm(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x, size_t x_stride,
          size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  HWY_ALIGN int16_t w16[kQ4KBlockSize];
  for (size_t r = 0; r < rows; ++r) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ4K& blk = w[r * row_stride + b];
      const float d = Fp16ToFp32(blk.d);
      const float dmin = Fp16ToFp32(blk.dmin);
      const Q4KScalesMins u = UnpackQ4KScales(blk.scales);
      DecodeBlock(blk, u, w16);
      for (size_t t = 0; t < n_tokens; ++t) {
        const BlockQ8K& xb = x[t * x_stride + b];
        const int32_t msum = MinsDot(u.m, xb);
        const int32_t isum = Q4KScaledDot(w16, xb);
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

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(Gemm);

void Q4KGemvHwy(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y) {
  HWY_DYNAMIC_DISPATCH(Gemm)(w, row_stride, rows, x, n_blocks, 1, n_blocks, y, 0);
}

void Q4KGemmHwy(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  HWY_DYNAMIC_DISPATCH(Gemm)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
