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

// Returns sum(x[i]^2) as ggml's RMSNorm forms it: each square rounded to float, then
// added in order into a double. Any other order rounds the double sum differently now and
// then, which moves the float mean by one ulp and the quantized activations after it.
double SumOfSquares(const float* x, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += static_cast<double>(x[i] * x[i]);
  return sum;
}

void RmsNormImpl(const float* x, const float* w, size_t n, float eps, float* y) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  const float mean = static_cast<float>(SumOfSquares(x, n) / static_cast<double>(n));
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
