// Highway NeoX RoPE (foreach_target + dynamic dispatch).
#include "kernels/f32/rope.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/rope_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Rotates pairs (j, j + half) for the lanes of descriptor d starting at j.
template <class D>
HWY_INLINE void RotateAt(D d, float* head, size_t half, size_t j, const float* cos,
                         const float* sin) {
  const auto x0 = hn::LoadU(d, head + j), x1 = hn::LoadU(d, head + j + half);
  const auto c = hn::LoadU(d, cos + j), s = hn::LoadU(d, sin + j);
  hn::StoreU(hn::MulSub(x0, c, hn::Mul(x1, s)), d, head + j);
  hn::StoreU(hn::MulAdd(x0, s, hn::Mul(x1, c)), d, head + j + half);
}

void RopeNeoxImpl(float* x, size_t n_heads, size_t head_stride, size_t head_dim,
                  const float* cos, const float* sin) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  const size_t half = head_dim / 2;
  for (size_t h = 0; h < n_heads; ++h) {
    float* head = x + h * head_stride;
    size_t j = 0;
    for (; j + L <= half; j += L) RotateAt(d, head, half, j, cos, sin);
    for (; j < half; ++j) RotateAt(d1, head, half, j, cos, sin);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(RopeNeoxImpl);

void RopeNeox(float* x, size_t n_heads, size_t head_stride, size_t head_dim,
              const float* cos, const float* sin) {
  HWY_DYNAMIC_DISPATCH(RopeNeoxImpl)(x, n_heads, head_stride, head_dim, cos, sin);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
