// Scalar SwiGLU variants, the definition for the Highway versions.
#include <algorithm>
#include <cmath>

#include "kernels/f32/swiglu.h"

namespace cpubrrr {

void SwigluOaiRef(const float* g, const float* u, size_t n, float alpha, float limit,
                  float* h) {
  for (size_t i = 0; i < n; ++i) {
    const float gc = std::min(g[i], limit);
    const float uc = std::clamp(u[i], -limit, limit);
    h[i] = gc / (1.0f + std::exp(alpha * -gc)) * (uc + 1.0f);
  }
}

void SwigluRef(const float* g, const float* u, size_t n, float* h) {
  for (size_t i = 0; i < n; ++i) h[i] = g[i] / (1.0f + std::exp(-g[i])) * u[i];
}

}  // namespace cpubrrr
