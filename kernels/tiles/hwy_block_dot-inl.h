// Highway helpers shared by the *_hwy.cc kernels: 16-byte int8 dots via int16 widening,
// and a fixed 128-bit vector shape so every Highway target (SSE4 .. AVX3, NEON, SVE) runs
// the same code. Per-target header: include after hwy/highway.h. Empty for HWY_SCALAR
// (no 128-bit vectors), where the kernels use plain C++.
#if defined(CPUBRRR_KERNELS_TILES_HWY_BLOCK_DOT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CPUBRRR_KERNELS_TILES_HWY_BLOCK_DOT_INL_H_
#undef CPUBRRR_KERNELS_TILES_HWY_BLOCK_DOT_INL_H_
#else
#define CPUBRRR_KERNELS_TILES_HWY_BLOCK_DOT_INL_H_
#endif

#include "hwy/highway.h"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D8 = hn::Full128<int8_t>;
using DU8 = hn::Full128<uint8_t>;
using D8Half = hn::Full64<int8_t>;
using D16 = hn::Full128<int16_t>;
using D32 = hn::Full128<int32_t>;
using DF = hn::Full128<float>;
using V8 = hn::Vec<D8>;
using V16 = hn::Vec<D16>;
using V32 = hn::Vec<D32>;
using VF = hn::Vec<DF>;

// Returns int8 lanes 0..7 of v widened to int16.
HWY_INLINE V16 WidenLower(V8 v) { return hn::PromoteTo(D16(), hn::LowerHalf(D8Half(), v)); }

// Returns int8 lanes 8..15 of v widened to int16.
HWY_INLINE V16 WidenUpper(V8 v) { return hn::PromoteTo(D16(), hn::UpperHalf(D8Half(), v)); }

// Returns the int32 partial sums (4 lanes, in an unspecified split; only their total is
// used) of the dot of 32 weights, given widened as w0..w3 (elements 0-7, 8-15, 16-23,
// 24-31), with x[0..32). int16 products of int8 values and their pair sums cannot
// overflow int32. Sizeless SVE vectors cannot live in structs or arrays, hence four
// arguments.
HWY_INLINE V32 Dot32(V16 w0, V16 w1, V16 w2, V16 w3, const int8_t* x) {
  const D32 d32;
  const V8 x_lo = hn::LoadU(D8(), x), x_hi = hn::LoadU(D8(), x + 16);
  V32 sum1 = hn::Zero(d32);
  V32 sum0 = hn::ReorderWidenMulAccumulate(d32, w0, WidenLower(x_lo), hn::Zero(d32), sum1);
  sum0 = hn::ReorderWidenMulAccumulate(d32, w1, WidenUpper(x_lo), sum0, sum1);
  sum0 = hn::ReorderWidenMulAccumulate(d32, w2, WidenLower(x_hi), sum0, sum1);
  sum0 = hn::ReorderWidenMulAccumulate(d32, w3, WidenUpper(x_hi), sum0, sum1);
  return hn::Add(sum0, sum1);
}

// Returns acc plus the int32 partial sums, converted to float and scaled by `scale`.
HWY_INLINE VF AddScaled(VF acc, V32 isum, float scale) {
  const DF df;
  return hn::MulAdd(hn::ConvertTo(df, isum), hn::Set(df, scale), acc);
}

// Returns the sum of the lanes of v.
HWY_INLINE float SumLanes(VF v) { return hn::GetLane(hn::SumOfLanes(DF(), v)); }

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#endif  // include guard toggled per target
