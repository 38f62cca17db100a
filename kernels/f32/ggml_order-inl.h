// Highway helpers that reproduce the float steps of ggml's x86 CPU kernels (llama.cpp's
// zen4 / AVX-512 build), so that ops built on them give llama.cpp's bits: its vector
// exp, the lane tree of a 16-float horizontal sum, and the lane layout of its f32 dot.
// Written from the order of operations of ggml's vec.h / simd-mappings.h, not copied.
// Include inside HWY_NAMESPACE after hwy/highway.h; compile with -ffp-contract=off.
#if defined(CPUBRRR_KERNELS_F32_GGML_ORDER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CPUBRRR_KERNELS_F32_GGML_ORDER_INL_H_
#undef CPUBRRR_KERNELS_F32_GGML_ORDER_INL_H_
#else
#define CPUBRRR_KERNELS_F32_GGML_ORDER_INL_H_
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace ggml_order {
namespace hn = hwy::HWY_NAMESPACE;

// exp(x) as ggml's AVX-512 ggml_v_expf evaluates it, lane by lane: n = round(x log2 e)
// by the 1.5 * 2^23 shift, b = x - n ln2 in two fused steps, a degree-5 polynomial in
// b (three fused chains combined through u = b * b), scaled by 2^n with one rounding;
// |n| > 192 gives 0 (n <= 0) or infinity. The scaling multiplies by 2^(n/2) exactly and
// then by 2^(n - n/2), which rounds once, as vscalefps does.
template <class D>
HWY_INLINE hn::Vec<D> Exp(D d, hn::Vec<D> x) {
  const hn::RebindToSigned<D> di;
  const auto shift = hn::Set(d, 0x1.8p23f);
  const auto z = hn::MulAdd(x, hn::Set(d, 0x1.715476p+0f), shift);
  const auto n = hn::Sub(z, shift);
  const auto b = hn::NegMulAdd(n, hn::Set(d, 0x1.7f7d1cp-20f),
                               hn::NegMulAdd(n, hn::Set(d, 0x1.62e4p-1f), x));
  const auto u = hn::Mul(b, b);
  const auto j = hn::MulAdd(
      hn::MulAdd(hn::MulAdd(hn::Set(d, 0x1.0e4020p-7f), b, hn::Set(d, 0x1.573e2ep-5f)), u,
                 hn::MulAdd(hn::Set(d, 0x1.555e66p-3f), b, hn::Set(d, 0x1.fffdb6p-2f))),
      u, hn::MulAdd(hn::Set(d, 0x1.ffffecp-1f), b, hn::Set(d, 1.0f)));
  const auto big = hn::Gt(hn::Abs(n), hn::Set(d, 192.0f));
  // n is a whole number; outside +-192 the lanes are replaced below.
  const auto ni = hn::ConvertTo(di, hn::IfThenZeroElse(big, n));
  const auto n1 = hn::ShiftRight<1>(ni);
  const auto n2 = hn::Sub(ni, n1);
  const auto bias = hn::Set(di, 127);
  const auto p1 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n1, bias)));
  const auto p2 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n2, bias)));
  const auto res = hn::Mul(hn::Mul(j, p1), p2);
  const auto alt = hn::IfThenElseZero(hn::Gt(n, hn::Zero(d)), hn::Set(d, INFINITY));
  return hn::IfThenElse(big, alt, res);
}

// Sums 16 floats as GCC's _mm512_reduce_add_ps does: halves, then quarters, then
// (0 + 2) + (1 + 3).
inline float Sum16(const float* v) {
  float b[8], c[4];
  for (int i = 0; i < 8; ++i) b[i] = v[i + 8] + v[i];
  for (int i = 0; i < 4; ++i) c[i] = b[i + 4] + b[i];
  return (c[0] + c[2]) + (c[1] + c[3]);
}

// Sums ggml_vec_dot_f32's 64 partial lanes (4 accumulators of 16): accumulator 0 + 2 and
// 1 + 3, then their sum, then Sum16.
inline float Sum64(const float* p) {
  float a[16];
  for (int l = 0; l < 16; ++l) a[l] = (p[l] + p[32 + l]) + (p[16 + l] + p[48 + l]);
  return Sum16(a);
}

// dot(x, y) over n in ggml_vec_dot_f32's order on x86 AVX-512: the first n & ~63 values
// by fused multiply-adds into 64 lanes (value i into lane i % 64), summed by Sum64; the
// rest added one by one: in runs of 16 and then of 8 as a rounded product plus the sum,
// the last n % 8 by scalar fused multiply-adds (as GCC compiled its leftover loop).
inline float Dot(const float* x, const float* y, size_t n) {
  const hn::CappedTag<float, 16> d;
  const size_t N = hn::Lanes(d);
  const size_t np = n & ~size_t{63};
  float sum = 0.0f;
  if (np != 0) {
    HWY_ALIGN float part[64];
#if HWY_HAVE_SCALABLE
    // Sizeless vectors cannot form an array: the lanes live in memory between steps.
    for (size_t v = 0; v < 64; v += N) hn::Store(hn::Zero(d), d, part + v);
    for (size_t i = 0; i < np; i += 64) {
      for (size_t v = 0; v < 64; v += N) {
        hn::Store(hn::MulAdd(hn::LoadU(d, x + i + v), hn::LoadU(d, y + i + v), hn::Load(d, part + v)),
                  d, part + v);
      }
    }
#else
    // The same fused steps with the 64 lanes in registers (stored once for Sum64): a
    // store and reload per step would chain each step behind the last one's store.
    constexpr size_t kVecs = 64 / hn::MaxLanes(d);
    hn::Vec<decltype(d)> acc[kVecs];
    for (auto& a : acc) a = hn::Zero(d);
    for (size_t i = 0; i < np; i += 64) {
#pragma GCC unroll 16
      for (size_t v = 0; v < kVecs; ++v) {
        acc[v] = hn::MulAdd(hn::LoadU(d, x + i + v * N), hn::LoadU(d, y + i + v * N), acc[v]);
      }
    }
    for (size_t v = 0; v < kVecs; ++v) hn::Store(acc[v], d, part + v * N);
#endif
    sum = Sum64(part);
  }
  size_t i = np;
  const size_t rounded = np + ((n - np) & ~size_t{7});
  for (; i < rounded; ++i) {
    const float p = x[i] * y[i];
    sum = sum + p;
  }
  for (; i < n; ++i) sum = std::fma(x[i], y[i], sum);
  return sum;
}

}  // namespace ggml_order
}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#endif  // CPUBRRR_KERNELS_F32_GGML_ORDER_INL_H_
