// Highway Q6_K x Q8_K gemv and gemm: int16 scaled weights, widening multiply-add, bit-exact.
#include "kernels/q6_k/q6_k_hwy.h"

#include "quant/fp16.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/q6_k/q6_k_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// At most 16 int16 lanes, so a vector never straddles two 16-element sub-blocks and the
// widening multiply-add has an overload on every target.
using D16 = hn::CappedTag<int16_t, 16>;

// Writes w16[i] = scales[i / 16] * (q_i - 32) (int16; at most 128 * 32) for the 256
// weights of `b`. Within half h, byte l of ql (and of ql + 32) and byte l of qh give
// elements l, l + 32, l + 64 and l + 96 (quant/q6_k.h).
void DecodeBlock(const BlockQ6K& b, int16_t* HWY_RESTRICT w16) {
  const D16 d16;
  const hn::RebindToUnsigned<D16> du16;
  const hn::Rebind<uint8_t, D16> du8;
  const size_t n = hn::Lanes(d16);
  const auto low4 = hn::Set(du16, 0x0F);
  const auto low2 = hn::Set(du16, 3);
  const auto bias = hn::Set(d16, 32);
  for (int h = 0; h < 2; ++h) {
    const uint8_t* ql = b.ql + 64 * h;
    const uint8_t* qh = b.qh + 32 * h;
    int16_t* out = w16 + 128 * h;
    for (size_t l = 0; l < 32; l += n) {
      const auto a = hn::PromoteTo(du16, hn::LoadU(du8, ql + l));
      const auto c = hn::PromoteTo(du16, hn::LoadU(du8, ql + 32 + l));
      const auto hb = hn::PromoteTo(du16, hn::LoadU(du8, qh + l));
      // Stores scales * (q - 32) for the n elements starting at element i of the half.
      const auto store = [&](decltype(a) q, size_t i) {
        const auto scale = hn::Set(d16, b.scales[(128 * h + i) / 16]);
        hn::StoreU(hn::Mul(hn::Sub(hn::BitCast(d16, q), bias), scale), d16, out + i);
      };
      store(hn::Or(hn::And(a, low4), hn::ShiftLeft<4>(hn::And(hb, low2))), l);
      store(hn::Or(hn::And(c, low4), hn::ShiftLeft<4>(hn::And(hn::ShiftRight<2>(hb), low2))), 32 + l);
      store(hn::Or(hn::ShiftRight<4>(a), hn::ShiftLeft<4>(hn::And(hn::ShiftRight<4>(hb), low2))), 64 + l);
      store(hn::Or(hn::ShiftRight<4>(c), hn::ShiftLeft<4>(hn::ShiftRight<6>(hb))), 96 + l);
    }
  }
}

// Returns isum = sum_i w16[i] * x.qs[i] over one block.
int32_t Q6KScaledDot(const int16_t* HWY_RESTRICT w16, const BlockQ8K& x) {
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
void Gemm(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x, size_t x_stride,
          size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  HWY_ALIGN int16_t w16[kQ6KBlockSize];
  for (size_t r = 0; r < rows; ++r) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ6K& blk = w[r * row_stride + b];
      const float d = Fp16ToFp32(blk.d);
      DecodeBlock(blk, w16);
      for (size_t t = 0; t < n_tokens; ++t) {
        const BlockQ8K& xb = x[t * x_stride + b];
        const int32_t isum = Q6KScaledDot(w16, xb);
        float& out = y[t * y_stride + r];
        const float prev = b == 0 ? 0.0f : out;
        out = prev + xb.d * (d * static_cast<float>(isum));
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

void Q6KGemvHwy(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y) {
  HWY_DYNAMIC_DISPATCH(Gemm)(w, row_stride, rows, x, n_blocks, 1, n_blocks, y, 0);
}

void Q6KGemmHwy(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  HWY_DYNAMIC_DISPATCH(Gemm)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
