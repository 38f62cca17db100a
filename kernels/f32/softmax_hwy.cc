// Highway softmax with and without a sink logit (foreach_target + dynamic dispatch).
#include <cmath>

#include "kernels/f32/softmax.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/softmax_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/f32/ggml_order-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

// ggml's soft_max on x86 AVX-512 after its max: whole runs of 16 values through its
// vector exp, each run's values summed by its lane tree into a double; the rest one by
// one with the C library's expf; then the sink's expf; then one multiply by
// float(1 / sum).
void ExpNormalize(float* x, size_t n, float m, const float* sink) {
  const hn::CappedTag<float, 16> d;
  const size_t N = hn::Lanes(d);
  const auto vm = hn::Set(d, m);
  double sum = 0.0;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    for (size_t v = 0; v < 16; v += N) {
      hn::StoreU(ggml_order::Exp(d, hn::Sub(hn::LoadU(d, x + i + v), vm)), d, x + i + v);
    }
    sum += static_cast<double>(ggml_order::Sum16(x + i));
  }
  for (; i < n; ++i) {
    const float e = std::exp(x[i] - m);
    sum += static_cast<double>(e);
    x[i] = e;
  }
  if (sink != nullptr) sum += static_cast<double>(std::exp(*sink - m));
  const float scale = static_cast<float>(1.0 / sum);
  const hn::ScalableTag<float> df;
  const size_t L = hn::Lanes(df);
  const auto vs = hn::Set(df, scale);
  i = 0;
  for (; i + L <= n; i += L) hn::StoreU(hn::Mul(hn::LoadU(df, x + i), vs), df, x + i);
  for (; i < n; ++i) x[i] *= scale;
}

void SoftmaxImpl(float* x, size_t n) { ExpNormalize(x, n, MaxImpl(x, n), nullptr); }

void SoftmaxWithSinkImpl(float* x, size_t n, float sink) {
  ExpNormalize(x, n, std::fmax(MaxImpl(x, n), sink), &sink);
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
