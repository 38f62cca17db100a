// expf in Highway vectors with the C library's bits: glibc's (2.27 and later) expf as its
// x86 FMA build evaluates it, in double lanes, so a vector of exps equals a loop of
// std::exp calls where llama.cpp's ops make those calls (gpt-oss's SwiGLU).
// Include inside HWY_NAMESPACE after hwy/highway.h; compile with -ffp-contract=off.
#if defined(CPUBRRR_KERNELS_F32_LIBC_EXPF_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CPUBRRR_KERNELS_F32_LIBC_EXPF_INL_H_
#undef CPUBRRR_KERNELS_F32_LIBC_EXPF_INL_H_
#else
#define CPUBRRR_KERNELS_F32_LIBC_EXPF_INL_H_
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace libc_expf {
namespace hn = hwy::HWY_NAMESPACE;

// exp of every lane by one std::exp call each.
template <class D>
HWY_INLINE hn::Vec<D> ExpPerLane(D d, hn::Vec<D> x) {
  HWY_ALIGN float e[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(x, d, e);
  for (size_t j = 0; j < hn::Lanes(d); ++j) e[j] = std::exp(e[j]);
  return hn::Load(d, e);
}

// Whether this target computes the C library's bits in vectors: on x86 with FMA, where
// glibc runs its FMA build (the same fused steps as below). Elsewhere the library's own
// build fuses other steps (aarch64 rounds with an instruction, not the shift), so exps
// go one lane at a time through std::exp.
#if HWY_ARCH_X86 && HWY_NATIVE_FMA
inline constexpr bool kInVectors = true;

// 2^(i/32) rounded to double, its bits less i << 47: adding k << 47 for an integer k with
// k mod 32 = i gives 2^(k/32) (the index's bits land in the exponent field).
alignas(64) inline constexpr uint64_t kTwoToIOver32[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540};

// exp of float lanes promoted to double, before the range checks: k = round(x 32/ln2)
// by the 1.5 * 2^52 shift (fused), r = x 32/ln2 - k (fused), 2^(r/32) by a degree-3
// polynomial in r (three fused steps through r * r), times 2^(k/32) from the table.
template <class DD>
HWY_INLINE hn::Vec<DD> ExpInDouble(DD dd, hn::Vec<DD> x) {
  const hn::RebindToSigned<DD> di;
  const auto inv_ln2_n = hn::Set(dd, 0x1.71547652b82fep+5);  // 32 / ln 2
  const auto shift = hn::Set(dd, 0x1.8p+52);
  const auto kd_shifted = hn::MulAdd(inv_ln2_n, x, shift);
  const auto ki = hn::BitCast(di, kd_shifted);
  const auto kd = hn::Sub(kd_shifted, shift);
  const auto r = hn::MulSub(inv_ln2_n, x, kd);
  const auto index = hn::And(ki, hn::Set(di, 31));
  const auto table = hn::GatherIndex(di, reinterpret_cast<const int64_t*>(kTwoToIOver32), index);
  const auto s = hn::BitCast(dd, hn::Add(table, hn::ShiftLeft<47>(ki)));
  const auto z = hn::MulAdd(hn::Set(dd, 0x1.c6af84b912394p-20), r,
                            hn::Set(dd, 0x1.ebfce50fac4f3p-13));
  const auto y = hn::MulAdd(z, hn::Mul(r, r),
                            hn::MulAdd(r, hn::Set(dd, 0x1.62e42ff0c52d6p-6), hn::Set(dd, 1.0)));
  return hn::Mul(y, s);
}

// std::exp of every lane of x, bit for bit; in vectors for vectors of 4 floats or more:
// overflow (x > 88.72) gives infinity, x < -103.97 gives 0, x below -103.28 gives the
// smallest subnormal (glibc's "may underflow" result), NaN stays NaN.
template <class D>
HWY_INLINE hn::Vec<D> Exp(D d, hn::Vec<D> x) {
  if constexpr (hn::MaxLanes(D()) < 4) {
    return ExpPerLane(d, x);
  } else {
    const hn::Half<D> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    const auto lo = hn::DemoteTo(dh, ExpInDouble(dd, hn::PromoteTo(dd, hn::LowerHalf(dh, x))));
    const auto hi = hn::DemoteTo(dh, ExpInDouble(dd, hn::PromoteTo(dd, hn::UpperHalf(dh, x))));
    auto e = hn::Combine(d, hi, lo);
    e = hn::IfThenElse(hn::Lt(x, hn::Set(d, -0x1.9d1d9ep6f)), hn::Set(d, 0x1p-149f), e);
    e = hn::IfThenZeroElse(hn::Lt(x, hn::Set(d, -0x1.9fe368p6f)), e);
    e = hn::IfThenElse(hn::Gt(x, hn::Set(d, 0x1.62e42ep6f)), hn::Set(d, HUGE_VALF), e);
    return hn::IfThenElse(hn::IsNaN(x), hn::Add(x, x), e);
  }
}

#else
inline constexpr bool kInVectors = false;

template <class D>
HWY_INLINE hn::Vec<D> Exp(D d, hn::Vec<D> x) {
  return ExpPerLane(d, x);
}
#endif  // HWY_ARCH_X86 && HWY_NATIVE_FMA

}  // namespace libc_expf
}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#endif  // CPUBRRR_KERNELS_F32_LIBC_EXPF_INL_H_
