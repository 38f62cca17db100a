// Scalar NeoX RoPE, the definition for the Highway version.
#include "kernels/f32/rope.h"

namespace cpubrrr {

void RopeNeoxRef(float* x, size_t n_heads, size_t head_stride, size_t head_dim,
                 const float* cos, const float* sin) {
  const size_t half = head_dim / 2;
  for (size_t h = 0; h < n_heads; ++h) {
    float* head = x + h * head_stride;
    for (size_t j = 0; j < half; ++j) {
      const float x0 = head[j], x1 = head[j + half];
      head[j] = x0 * cos[j] - x1 * sin[j];
      head[j + half] = x0 * sin[j] + x1 * cos[j];
    }
  }
}

}  // namespace cpubrrr
