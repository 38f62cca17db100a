// Highway SwiGLU variants (foreach_target + dynamic dispatch).
#include <cmath>

#include "kernels/f32/swiglu.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/swiglu_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/contrib/math/math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Returns x * sigmoid(a x) using e = exp(-|a x|) in (0, 1]: sigmoid is 1 / (1 + e) for
// a x >= 0 and e / (1 + e) below, so no step overflows.
template <class D, class V>
HWY_INLINE V XSigmoid(D d, V x, V a) {
  const auto ax = hn::Mul(a, x);
  const auto e = hn::Exp(d, hn::Neg(hn::Abs(ax)));
  const auto num = hn::IfThenElse(hn::Lt(ax, hn::Zero(d)), e, hn::Set(d, 1.0f));
  return hn::Mul(x, hn::Div(num, hn::Add(hn::Set(d, 1.0f), e)));
}

// gpt-oss's clamped SwiGLU in ggml's expression, gc / (1 + expf(alpha * -gc)) * (uc + 1),
// with the C library's expf per lane: llama.cpp evaluates it so, and any other exp
// differs in the last bit now and then, which the quantization of the result can turn
// into a different activation.
template <class D>
HWY_INLINE void OaiAt(D d, const float* g, const float* u, size_t i, float alpha,
                      float limit, float* h) {
  const auto lim = hn::Set(d, limit);
  const auto gc = hn::Min(hn::LoadU(d, g + i), lim);
  const auto uc = hn::Min(hn::Max(hn::LoadU(d, u + i), hn::Neg(lim)), lim);
  HWY_ALIGN float arg[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(hn::Mul(hn::Set(d, alpha), hn::Neg(gc)), d, arg);
  for (size_t j = 0; j < hn::Lanes(d); ++j) arg[j] = std::exp(arg[j]);
  const auto act = hn::Div(gc, hn::Add(hn::Set(d, 1.0f), hn::Load(d, arg)));
  hn::StoreU(hn::Mul(act, hn::Add(uc, hn::Set(d, 1.0f))), d, h + i);
}

template <class D>
HWY_INLINE void PlainAt(D d, const float* g, const float* u, size_t i, float* h) {
  const auto act = XSigmoid(d, hn::LoadU(d, g + i), hn::Set(d, 1.0f));
  hn::StoreU(hn::Mul(act, hn::LoadU(d, u + i)), d, h + i);
}

void SwigluOaiImpl(const float* g, const float* u, size_t n, float alpha, float limit,
                   float* h) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  size_t i = 0;
  for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) OaiAt(d, g, u, i, alpha, limit, h);
  for (; i < n; ++i) OaiAt(d1, g, u, i, alpha, limit, h);
}

void SwigluImpl(const float* g, const float* u, size_t n, float* h) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  size_t i = 0;
  for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) PlainAt(d, g, u, i, h);
  for (; i < n; ++i) PlainAt(d1, g, u, i, h);
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(SwigluOaiImpl);
HWY_EXPORT(SwigluImpl);

void SwigluOai(const float* g, const float* u, size_t n, float alpha, float limit,
               float* h) {
  HWY_DYNAMIC_DISPATCH(SwigluOaiImpl)(g, u, n, alpha, limit, h);
}

void Swiglu(const float* g, const float* u, size_t n, float* h) {
  HWY_DYNAMIC_DISPATCH(SwigluImpl)(g, u, n, h);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
