// Highway residual updates (foreach_target + dynamic dispatch).
#include "kernels/f32/vec.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/vec_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void AddToImpl(float* y, const float* x, size_t n) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  size_t i = 0;
  for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) {
    hn::StoreU(hn::Add(hn::LoadU(d, y + i), hn::LoadU(d, x + i)), d, y + i);
  }
  for (; i < n; ++i) hn::StoreU(hn::Add(hn::LoadU(d1, y + i), hn::LoadU(d1, x + i)), d1, y + i);
}

void ScaleAddToImpl(float* y, float a, const float* x, size_t n) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const auto va = hn::Set(d, a);
  const auto va1 = hn::Set(d1, a);
  size_t i = 0;
  for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) {
    hn::StoreU(hn::MulAdd(va, hn::LoadU(d, x + i), hn::LoadU(d, y + i)), d, y + i);
  }
  for (; i < n; ++i) {
    hn::StoreU(hn::MulAdd(va1, hn::LoadU(d1, x + i), hn::LoadU(d1, y + i)), d1, y + i);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(AddToImpl);
HWY_EXPORT(ScaleAddToImpl);

void AddTo(float* y, const float* x, size_t n) { HWY_DYNAMIC_DISPATCH(AddToImpl)(y, x, n); }

void ScaleAddTo(float* y, float a, const float* x, size_t n) {
  HWY_DYNAMIC_DISPATCH(ScaleAddToImpl)(y, a, x, n);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
