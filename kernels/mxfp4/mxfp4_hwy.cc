// Portable Highway MXFP4 x Q8_0 gemv/gemm (128-bit vectors, int16 widening dots),
// compiled for every Highway target and dispatched at run time.
#include "kernels/mxfp4/mxfp4_kernels.h"
#include "quant/fp16.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/mxfp4/mxfp4_hwy.cc"
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
void RowTile(const BlockMxfp4* row, const BlockQ8_0* x, size_t x_stride, size_t n_blocks,
             float* y, size_t y_stride) {
  for (size_t t = 0; t < T; ++t) {
    float sum = 0.0f;
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ8_0& xb = x[t * x_stride + b];
      int32_t isum = 0;
      for (int j = 0; j < 16; ++j) {
        isum += kMxfp4DoubledValues[row[b].qs[j] & 0x0F] * xb.qs[j];
        isum += kMxfp4DoubledValues[row[b].qs[j] >> 4] * xb.qs[j + 16];
      }
      sum += E8m0ToFp32Half(row[b].e) * Fp16ToFp32(xb.d) * static_cast<float>(isum);
    }
    y[t * y_stride] = sum;
  }
}
#else
// Doubled E2M1 values by code (MODEL_SPEC.md section 1), the byte-lookup table.
alignas(16) constexpr int8_t kValues[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// Computes y[t * y_stride] = dot(row, x + t * x_stride) for t < T: each weight block is
// decoded once per tile of T tokens. Per block: an int32 dot, then one MulAdd of its
// four partial lanes scaled by 2^(e-128) * d_x.
template <size_t T>
void RowTile(const BlockMxfp4* row, const BlockQ8_0* x, size_t x_stride, size_t n_blocks,
             float* y, size_t y_stride) {
  static_assert(T >= 1 && T <= 4, "four named accumulators");
  const DF df;
  const D8 d8;
  const DU8 du8;
  const V8 table = hn::Load(d8, kValues);
  const auto low4 = hn::Set(du8, 0x0F);
  VF acc0 = hn::Zero(df), acc1 = hn::Zero(df), acc2 = hn::Zero(df), acc3 = hn::Zero(df);
  for (size_t b = 0; b < n_blocks; ++b) {
    const auto q = hn::LoadU(du8, row[b].qs);
    const V8 lo = hn::TableLookupBytes(table, hn::BitCast(d8, hn::And(q, low4)));
    const V8 hi = hn::TableLookupBytes(table, hn::BitCast(d8, hn::ShiftRight<4>(q)));
    const V16 w0 = WidenLower(lo), w1 = WidenUpper(lo), w2 = WidenLower(hi), w3 = WidenUpper(hi);
    const float sw = E8m0ToFp32Half(row[b].e);
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
#endif  // HWY_TARGET == HWY_SCALAR

// Tokens that share one decoded weight block in the gemm.
constexpr size_t kTokenTile = 4;

void GemmImpl(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
              size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  for (size_t r = 0; r < rows; ++r) {
    const BlockMxfp4* row = w + r * row_stride;
    size_t t = 0;
    for (; t + kTokenTile <= n_tokens; t += kTokenTile) {
      RowTile<kTokenTile>(row, x + t * x_stride, x_stride, n_blocks, y + t * y_stride + r, y_stride);
    }
    for (; t < n_tokens; ++t) {
      RowTile<1>(row, x + t * x_stride, x_stride, n_blocks, y + t * y_stride + r, y_stride);
    }
  }
}

void GemvImpl(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
              size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; ++r) RowTile<1>(w + r * row_stride, x, 0, n_blocks, y + r, 0);
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(GemvImpl);
HWY_EXPORT(GemmImpl);

void Mxfp4GemvHwy(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t n_blocks, float* y) {
  HWY_DYNAMIC_DISPATCH(GemvImpl)(w, row_stride, rows, x, n_blocks, y);
}

void Mxfp4GemmHwy(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                  size_t y_stride) {
  HWY_DYNAMIC_DISPATCH(GemmImpl)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
