// Highway Q5_K x Q8_K gemv and gemm: int16 scaled weights, widening multiply-add, bit-exact.
#include "kernels/q5_k/q5_k_hwy.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/q5_k/q5_k_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/kquant/scaled_gemm_hwy-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Writes w16[i] = sc_j * q_i (int16; at most 63 * 31) for the 256 weights of `b`, whose
// unpacked scales are `u`: the nibble of qs plus 16 times bit j of qh[i % 32].
void DecodeBlock(const BlockQ5K& b, const Q4KScalesMins& u, int16_t* HWY_RESTRICT w16) {
  const ScaledD16 d16;
  const hn::RebindToUnsigned<ScaledD16> du16;
  const hn::Rebind<uint8_t, ScaledD16> du8;
  const size_t n = hn::Lanes(d16);
  const auto low4 = hn::Set(du16, 0x0F);
  const auto one = hn::Set(du16, 1);
  for (int p = 0; p < 4; ++p) {
    const auto sc_lo = hn::Set(d16, static_cast<int16_t>((u.sc >> (16 * p)) & 0xFF));
    const auto sc_hi = hn::Set(d16, static_cast<int16_t>((u.sc >> (16 * p + 8)) & 0xFF));
    for (size_t i = 0; i < 32; i += n) {
      const auto q = hn::PromoteTo(du16, hn::LoadU(du8, b.qs + 32 * p + i));
      const auto h = hn::PromoteTo(du16, hn::LoadU(du8, b.qh + i));
      const auto bit_lo = hn::ShiftLeft<4>(hn::And(hn::ShiftRightSame(h, 2 * p), one));
      const auto bit_hi = hn::ShiftLeft<4>(hn::And(hn::ShiftRightSame(h, 2 * p + 1), one));
      const auto lo = hn::BitCast(d16, hn::Or(hn::And(q, low4), bit_lo));
      const auto hi = hn::BitCast(d16, hn::Or(hn::ShiftRight<4>(q), bit_hi));
      hn::StoreU(hn::Mul(lo, sc_lo), d16, w16 + 64 * p + i);
      hn::StoreU(hn::Mul(hi, sc_hi), d16, w16 + 64 * p + 32 + i);
    }
  }
}

void Gemm(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x, size_t x_stride,
          size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  ScaledMinGemm(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride,
                [](const BlockQ5K& b, const Q4KScalesMins& u, int16_t* w16) { DecodeBlock(b, u, w16); });
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(Gemm);

void Q5KGemvHwy(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y) {
  HWY_DYNAMIC_DISPATCH(Gemm)(w, row_stride, rows, x, n_blocks, 1, n_blocks, y, 0);
}

void Q5KGemmHwy(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  HWY_DYNAMIC_DISPATCH(Gemm)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
