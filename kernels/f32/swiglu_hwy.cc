// Highway SwiGLU variants (foreach_target + dynamic dispatch).
#include <cmath>

#include "kernels/f32/swiglu.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/swiglu_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/f32/ggml_order-inl.h"
#include "kernels/f32/libc_expf-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// gpt-oss's clamped SwiGLU in ggml's expression, gc / (1 + expf(alpha * -gc)) * (uc + 1),
// with the C library's expf: llama.cpp evaluates it so, and any other exp differs in the
// last bit now and then, which the quantization of the result can turn into a different
// activation.
template <class D>
HWY_INLINE void OaiAt(D d, const float* g, const float* u, size_t i, float alpha,
                      float limit, float* h) {
  const auto lim = hn::Set(d, limit);
  const auto gc = hn::Min(hn::LoadU(d, g + i), lim);
  const auto uc = hn::Min(hn::Max(hn::LoadU(d, u + i), hn::Neg(lim)), lim);
  const auto e = libc_expf::Exp(d, hn::Mul(hn::Set(d, alpha), hn::Neg(gc)));
  const auto act = hn::Div(gc, hn::Add(hn::Set(d, 1.0f), e));
  hn::StoreU(hn::Mul(act, hn::Add(uc, hn::Set(d, 1.0f))), d, h + i);
}

// Qwen3's SwiGLU as ggml's swiglu on x86 AVX-512: whole runs of 16 as
// g / (1 + exp(-g)) * u with ggml's vector exp (ggml_order::Exp), the rest with the C
// library's expf; so its bits match llama.cpp's.
template <class D>
HWY_INLINE void PlainAt(D d, const float* g, const float* u, size_t i, float* h) {
  const auto x = hn::LoadU(d, g + i);
  const auto e = ggml_order::Exp(d, hn::Sub(hn::Zero(d), x));
  const auto act = hn::Div(x, hn::Add(hn::Set(d, 1.0f), e));
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
  const hn::CappedTag<float, 16> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    for (size_t v = 0; v < 16; v += N) PlainAt(d, g, u, i + v, h);
  }
  for (; i < n; ++i) h[i] = g[i] / (1.0f + std::exp(-g[i])) * u[i];
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
