// Highway RMSNorm (foreach_target + dynamic dispatch).
#include <cmath>

#include "kernels/f32/rmsnorm.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/rmsnorm_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Returns sum(x[i]^2) from four float vector accumulators plus a one-lane tail.
float SumOfSquares(const float* x, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t L = hn::Lanes(d);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  size_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    const auto v0 = hn::LoadU(d, x + i), v1 = hn::LoadU(d, x + i + L);
    const auto v2 = hn::LoadU(d, x + i + 2 * L), v3 = hn::LoadU(d, x + i + 3 * L);
    a0 = hn::MulAdd(v0, v0, a0);
    a1 = hn::MulAdd(v1, v1, a1);
    a2 = hn::MulAdd(v2, v2, a2);
    a3 = hn::MulAdd(v3, v3, a3);
  }
  for (; i + L <= n; i += L) {
    const auto v = hn::LoadU(d, x + i);
    a0 = hn::MulAdd(v, v, a0);
  }
  float sum = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
  for (; i < n; ++i) sum += x[i] * x[i];
  return sum;
}

void RmsNormImpl(const float* x, const float* w, size_t n, float eps, float* y) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  const float mean = SumOfSquares(x, n) / static_cast<float>(n);
  const float scale = 1.0f / std::sqrt(mean + eps);
  const auto vs = hn::Set(d, scale);
  const auto vs1 = hn::Set(d1, scale);
  size_t i = 0;
  if (w == nullptr) {
    for (; i + L <= n; i += L) hn::StoreU(hn::Mul(hn::LoadU(d, x + i), vs), d, y + i);
    for (; i < n; ++i) hn::StoreU(hn::Mul(hn::LoadU(d1, x + i), vs1), d1, y + i);
  } else {
    for (; i + L <= n; i += L) {
      const auto xs = hn::Mul(hn::LoadU(d, x + i), vs);
      hn::StoreU(hn::Mul(xs, hn::LoadU(d, w + i)), d, y + i);
    }
    for (; i < n; ++i) {
      const auto xs = hn::Mul(hn::LoadU(d1, x + i), vs1);
      hn::StoreU(hn::Mul(xs, hn::LoadU(d1, w + i)), d1, y + i);
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(RmsNormImpl);

void RmsNorm(const float* x, const float* w, size_t n, float eps, float* y) {
  HWY_DYNAMIC_DISPATCH(RmsNormImpl)(x, w, n, eps, y);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
