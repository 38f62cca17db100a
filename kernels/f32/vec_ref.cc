// Scalar residual updates, the definition for the Highway versions.
#include "kernels/f32/vec.h"

namespace cpubrrr {

void AddToRef(float* y, const float* x, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] += x[i];
}

void ScaleAddToRef(float* y, float a, const float* x, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] += a * x[i];
}

}  // namespace cpubrrr
