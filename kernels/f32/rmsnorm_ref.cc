// Scalar RMSNorm, the definition the Highway version is tested against.
#include <cmath>

#include "kernels/f32/rmsnorm.h"

namespace cpubrrr {

void RmsNormRef(const float* x, const float* w, size_t n, float eps, float* y) {
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += static_cast<double>(x[i] * x[i]);
  const float mean = static_cast<float>(sum / static_cast<double>(n));
  const float scale = 1.0f / std::sqrt(mean + eps);
  if (w == nullptr) {
    for (size_t i = 0; i < n; ++i) y[i] = x[i] * scale;
  } else {
    for (size_t i = 0; i < n; ++i) y[i] = x[i] * scale * w[i];
  }
}

}  // namespace cpubrrr
