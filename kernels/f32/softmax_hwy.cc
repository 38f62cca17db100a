// Highway softmax with and without a sink logit (foreach_target + dynamic dispatch).
#include <cmath>

#include "kernels/f32/softmax.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/softmax_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/contrib/math/math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Vectors summed in float before the partial sum moves into the double total; keeps
// the float rounding error of the total near 64 ulp whatever n is.
constexpr size_t kFlushVectors = 64;

float MaxImpl(const float* x, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t L = hn::Lanes(d);
  float m = -INFINITY;
  size_t i = 0;
  if (n >= L) {
    auto vm = hn::LoadU(d, x);
    for (i = L; i + L <= n; i += L) vm = hn::Max(vm, hn::LoadU(d, x + i));
    m = hn::GetLane(hn::MaxOfLanes(d, vm));
  }
  for (; i < n; ++i) m = std::fmax(m, x[i]);
  return m;
}

// Stores exp(x[i] - m) in x and returns extra + the sum of the stored values.
double ExpAndSum(float* x, size_t n, float m, double extra) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  const auto vm = hn::Set(d, m);
  double total = extra;
  size_t i = 0;
  while (i + L <= n) {
    auto a0 = hn::Zero(d), a1 = hn::Zero(d);
    const size_t end = i + kFlushVectors * L < n ? i + kFlushVectors * L : n;
    for (; i + 2 * L <= end; i += 2 * L) {
      const auto e0 = hn::Exp(d, hn::Sub(hn::LoadU(d, x + i), vm));
      const auto e1 = hn::Exp(d, hn::Sub(hn::LoadU(d, x + i + L), vm));
      hn::StoreU(e0, d, x + i);
      hn::StoreU(e1, d, x + i + L);
      a0 = hn::Add(a0, e0);
      a1 = hn::Add(a1, e1);
    }
    for (; i + L <= end; i += L) {
      const auto e = hn::Exp(d, hn::Sub(hn::LoadU(d, x + i), vm));
      hn::StoreU(e, d, x + i);
      a0 = hn::Add(a0, e);
    }
    total += hn::GetLane(hn::SumOfLanes(d, hn::Add(a0, a1)));
  }
  const auto vm1 = hn::Set(d1, m);
  for (; i < n; ++i) {
    const auto e = hn::Exp(d1, hn::Sub(hn::LoadU(d1, x + i), vm1));
    hn::StoreU(e, d1, x + i);
    total += hn::GetLane(e);
  }
  return total;
}

void ScaleImpl(float* x, size_t n, float s) {
  const hn::ScalableTag<float> d;
  const size_t L = hn::Lanes(d);
  const auto vs = hn::Set(d, s);
  size_t i = 0;
  for (; i + L <= n; i += L) hn::StoreU(hn::Mul(hn::LoadU(d, x + i), vs), d, x + i);
  for (; i < n; ++i) x[i] *= s;
}

void SoftmaxImpl(float* x, size_t n) {
  const double sum = ExpAndSum(x, n, MaxImpl(x, n), 0.0);
  ScaleImpl(x, n, static_cast<float>(1.0 / sum));
}

void SoftmaxWithSinkImpl(float* x, size_t n, float sink) {
  const float m = std::fmax(MaxImpl(x, n), sink);
  const double sum = ExpAndSum(x, n, m, std::exp(sink - m));
  ScaleImpl(x, n, static_cast<float>(1.0 / sum));
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(SoftmaxImpl);
HWY_EXPORT(SoftmaxWithSinkImpl);

void Softmax(float* x, size_t n) { HWY_DYNAMIC_DISPATCH(SoftmaxImpl)(x, n); }

void SoftmaxWithSink(float* x, size_t n, float sink) {
  HWY_DYNAMIC_DISPATCH(SoftmaxWithSinkImpl)(x, n, sink);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
