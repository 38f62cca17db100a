// Scalar softmax with and without a sink logit, the definition for the Highway version.
#include <cmath>

#include "kernels/f32/softmax.h"

namespace cpubrrr {
namespace {

// Normalizes x[0..n) given the maximum `m` and an extra denominator term `extra`.
void Normalize(float* x, size_t n, float m, double extra) {
  double sum = extra;
  for (size_t i = 0; i < n; ++i) {
    x[i] = std::exp(x[i] - m);
    sum += x[i];
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (size_t i = 0; i < n; ++i) x[i] *= inv;
}

float MaxOf(const float* x, size_t n) {
  float m = -INFINITY;
  for (size_t i = 0; i < n; ++i) m = std::fmax(m, x[i]);
  return m;
}

}  // namespace

void SoftmaxRef(float* x, size_t n) { Normalize(x, n, MaxOf(x, n), 0.0); }

void SoftmaxWithSinkRef(float* x, size_t n, float sink) {
  const float m = std::fmax(MaxOf(x, n), sink);
  Normalize(x, n, m, std::exp(sink - m));
}

}  // namespace cpubrrr
