// Portable Highway Q8_0 activation quantizer and Q8_0 x Q8_0 gemv/gemm (128-bit vectors,
// int16 widening dots), compiled for every Highway target and dispatched at run time.

#include "kernels/q8_0/q8_0_kernels.h"
#include "quant/fp16.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/q8_0/q8_0_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/tiles/hwy_block_dot-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
// Highway's scalar target (a CPU without SSSE3) has no 128-bit vectors: plain C++, in the
// oracle's order.
template <size_t T>
void RowTile(const BlockQ8_0* row, const BlockQ8_0* x, size_t x_stride, size_t n_blocks,
             float* y, size_t y_stride) {
  for (size_t t = 0; t < T; ++t) {
    float sum = 0.0f;
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ8_0& xb = x[t * x_stride + b];
      int32_t isum = 0;
      for (int i = 0; i < kQ8_0BlockSize; ++i) isum += row[b].qs[i] * xb.qs[i];
      sum += Fp16ToFp32(row[b].d) * Fp16ToFp32(xb.d) * static_cast<float>(isum);
    }
    y[t * y_stride] = sum;
  }
}

// The activation rule of q8_0_kernels.h in scalar steps: the oracle's.
void QuantizeImpl(const float* x, BlockQ8_0* y, size_t n_blocks) {
  QuantizeQ8_0Ref(x, y, n_blocks);
}
#else
// Computes y[t * y_stride] = dot(row, x + t * x_stride) for t < T: each weight block is
// widened once per tile of T tokens. Per block: an int32 dot, then one MulAdd of its
// four partial lanes scaled by d_w * d_x.
template <size_t T>
void RowTile(const BlockQ8_0* row, const BlockQ8_0* x, size_t x_stride, size_t n_blocks,
             float* y, size_t y_stride) {
  static_assert(T >= 1 && T <= 4, "four named accumulators");
  const DF df;
  const D8 d8;
  VF acc0 = hn::Zero(df), acc1 = hn::Zero(df), acc2 = hn::Zero(df), acc3 = hn::Zero(df);
  for (size_t b = 0; b < n_blocks; ++b) {
    const V8 lo = hn::LoadU(d8, row[b].qs), hi = hn::LoadU(d8, row[b].qs + 16);
    const V16 w0 = WidenLower(lo), w1 = WidenUpper(lo), w2 = WidenLower(hi), w3 = WidenUpper(hi);
    const float sw = Fp16ToFp32(row[b].d);
    const BlockQ8_0* xb = x + b;
    acc0 = AddScaled(acc0, Dot32(w0, w1, w2, w3, xb->qs), sw * Fp16ToFp32(xb->d));
    if constexpr (T > 1) {
      xb += x_stride;
      acc1 = AddScaled(acc1, Dot32(w0, w1, w2, w3, xb->qs), sw * Fp16ToFp32(xb->d));
    }
    if constexpr (T > 2) {
      xb += x_stride;
      acc2 = AddScaled(acc2, Dot32(w0, w1, w2, w3, xb->qs), sw * Fp16ToFp32(xb->d));
    }
    if constexpr (T > 3) {
      xb += x_stride;
      acc3 = AddScaled(acc3, Dot32(w0, w1, w2, w3, xb->qs), sw * Fp16ToFp32(xb->d));
    }
  }
  y[0] = SumLanes(acc0);
  if constexpr (T > 1) y[y_stride] = SumLanes(acc1);
  if constexpr (T > 2) y[2 * y_stride] = SumLanes(acc2);
  if constexpr (T > 3) y[3 * y_stride] = SumLanes(acc3);
}

// Quantizes by the activation rule (q8_0_kernels.h): amax, d = amax / 127,
// q = Round(x * (127 / amax)) (Highway's Round: nearest, ties to even; 0 when amax is 0).
void QuantizeImpl(const float* x, BlockQ8_0* y, size_t n_blocks) {
  const DF df;
  const D32 d32;
  const hn::Full32<int8_t> d8x4;
  constexpr size_t kLanes = 4;  // floats per 128-bit vector
  for (size_t b = 0; b < n_blocks; ++b) {
    const float* xb = x + b * kQ8_0BlockSize;
    auto vmax = hn::Zero(df);
    for (size_t i = 0; i < kQ8_0BlockSize; i += kLanes) {
      vmax = hn::Max(vmax, hn::Abs(hn::LoadU(df, xb + i)));
    }
    const float amax = hn::GetLane(hn::MaxOfLanes(df, vmax));
    y[b].d = Fp32ToFp16(amax / 127.0f);
    const auto scale = hn::Set(df, amax != 0.0f ? 127.0f / amax : 0.0f);
    for (size_t i = 0; i < kQ8_0BlockSize; i += kLanes) {
      const auto q = hn::Round(hn::Mul(hn::LoadU(df, xb + i), scale));
      hn::StoreU(hn::DemoteTo(d8x4, hn::ConvertTo(d32, q)), d8x4, y[b].qs + i);
    }
  }
}
#endif  // HWY_TARGET == HWY_SCALAR

// Tokens that share one widened weight block in the gemm.
constexpr size_t kTokenTile = 4;

void GemmImpl(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
              size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  for (size_t r = 0; r < rows; ++r) {
    const BlockQ8_0* row = w + r * row_stride;
    size_t t = 0;
    for (; t + kTokenTile <= n_tokens; t += kTokenTile) {
      RowTile<kTokenTile>(row, x + t * x_stride, x_stride, n_blocks, y + t * y_stride + r, y_stride);
    }
    for (; t < n_tokens; ++t) {
      RowTile<1>(row, x + t * x_stride, x_stride, n_blocks, y + t * y_stride + r, y_stride);
    }
  }
}

void GemvImpl(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
              size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; ++r) RowTile<1>(w + r * row_stride, x, 0, n_blocks, y + r, 0);
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(QuantizeImpl);
HWY_EXPORT(GemvImpl);
HWY_EXPORT(GemmImpl);

void QuantizeQ8_0Hwy(const float* x, BlockQ8_0* y, size_t n_blocks) {
  HWY_DYNAMIC_DISPATCH(QuantizeImpl)(x, y, n_blocks);
}

void Q8_0GemvHwy(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t n_blocks, float* y) {
  HWY_DYNAMIC_DISPATCH(GemvImpl)(w, row_stride, rows, x, n_blocks, y);
}

void Q8_0GemmHwy(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                 size_t y_stride) {
  HWY_DYNAMIC_DISPATCH(GemmImpl)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
