// Scalar oracle of the Q8_0 kernels: the definition of correct.
#include "kernels/q8_0/q8_0_kernels.h"
#include <cmath>

#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// Returns the dot product of one weight row and x: an int32 dot per block, then one
// float step per block, sum += (d_w * d_x) * isum, in block order.
float DotRow(const BlockQ8_0* w, const BlockQ8_0* x, size_t n_blocks) {
  float sum = 0.0f;
  for (size_t b = 0; b < n_blocks; ++b) {
    int32_t isum = 0;
    for (int i = 0; i < kQ8_0BlockSize; ++i) isum += w[b].qs[i] * x[b].qs[i];
    sum += (Fp16ToFp32(w[b].d) * Fp16ToFp32(x[b].d)) * static_cast<float>(isum);
  }
  return sum;
}

}  // namespace

// Scalar statement of the activation rule in q8_0_kernels.h: one float multiply by
// 127 / amax, then std::nearbyint (the default rounding mode: nearest, ties to even).
void QuantizeQ8_0Ref(const float* x, BlockQ8_0* y, size_t n_blocks) {
  for (size_t b = 0; b < n_blocks; ++b) {
    const float* xb = x + b * kQ8_0BlockSize;
    float amax = 0.0f;
    for (int i = 0; i < kQ8_0BlockSize; ++i) amax = std::fmax(amax, std::fabs(xb[i]));
    y[b].d = Fp32ToFp16(amax / 127.0f);
    const float scale = amax != 0.0f ? 127.0f / amax : 0.0f;
    for (int i = 0; i < kQ8_0BlockSize; ++i) {
      y[b].qs[i] = static_cast<int8_t>(std::nearbyint(xb[i] * scale));
    }
  }
}

void Q8_0GemvRef(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; ++r) y[r] = DotRow(w + r * row_stride, x, n_blocks);
}

void Q8_0GemmRef(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                 size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    Q8_0GemvRef(w, row_stride, rows, x + t * x_stride, n_blocks, y + t * y_stride);
  }
}

}  // namespace cpubrrr
