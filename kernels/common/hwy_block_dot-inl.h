// Highway helpers shared by the *_hwy.cc kernels: 16-byte int8 dots via int16 widening,
// and a fixed 128-bit vector shape so every Highway target (SSE4 .. AVX3, NEON, SVE) runs
// the same code. Per-target header: include after hwy/highway.h. Empty for HWY_SCALAR
// (no 128-bit vectors), where the kernels use plain C++.
#if defined(CPUBRRR_KERNELS_COMMON_HWY_BLOCK_DOT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CPUBRRR_KERNELS_COMMON_HWY_BLOCK_DOT_INL_H_
#undef CPUBRRR_KERNELS_COMMON_HWY_BLOCK_DOT_INL_H_
#else
#define CPUBRRR_KERNELS_COMMON_HWY_BLOCK_DOT_INL_H_
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
using V16 = hn::Vec<D16>;
using V32 = hn::Vec<D32>;

// Sixteen int8 values widened to two int16 vectors (elements 0..7 and 8..15).
struct Wide16 {
  V16 lo, hi;
};

// Returns 16 int8 lanes widened to int16.
HWY_INLINE Wide16 Widen(hn::Vec<D8> v) {
  const D16 d16;
  const D8Half d8h;
  return {hn::PromoteTo(d16, hn::LowerHalf(d8h, v)), hn::PromoteTo(d16, hn::UpperHalf(d8h, v))};
}

// Returns x[0..16) widened to int16.
HWY_INLINE Wide16 LoadWide(const int8_t* x) { return Widen(hn::LoadU(D8(), x)); }

// Adds the products of w and x into the int32 partial sums (lanes in an unspecified
// order; only their total is used). int16 x int16 products of int8 values cannot
// overflow, and a pair sum is at most 2 * 128 * 128.
HWY_INLINE void MulAdd16(const Wide16& w, const Wide16& x, V32& sum0, V32& sum1) {
  const D32 d32;
  sum0 = hn::ReorderWidenMulAccumulate(d32, w.lo, x.lo, sum0, sum1);
  sum0 = hn::ReorderWidenMulAccumulate(d32, w.hi, x.hi, sum0, sum1);
}

// Returns the sum of the lanes of v.
HWY_INLINE float SumLanes(hn::Vec<DF> v) { return hn::GetLane(hn::SumOfLanes(DF(), v)); }

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#endif  // include guard toggled per target
