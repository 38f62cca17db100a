// Scalar Q5_K x Q8_K oracle: integer sums per block, one float step per 256 weights.
#include "kernels/q5_k/q5_k_ref.h"

#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// Returns the dot product of one row of n_blocks blocks with x, per the contract in
// q5_k_kernels.h (element i of sub-block j: Q5KQuant, quant/q5_k.h).
float DotRow(const BlockQ5K* w, const BlockQ8K* x, size_t n_blocks) {
  float sum = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    int32_t isum = 0;
    int32_t msum = 0;
    for (int j = 0; j < 8; ++j) {
      uint8_t sc, m;
      GetScaleMinK4(j, w[b].scales, &sc, &m);
      int32_t dot = 0;
      for (int i = 0; i < 32; ++i) dot += Q5KQuant(w[b], j, i) * x[b].qs[32 * j + i];
      isum += sc * dot;
      msum += m * (x[b].bsums[2 * j] + x[b].bsums[2 * j + 1]);
    }
    const float d = Fp16ToFp32(w[b].d);
    const float dmin = Fp16ToFp32(w[b].dmin);
    sum += x[b].d * (d * static_cast<float>(isum) - dmin * static_cast<float>(msum));
  }
  return sum;
}

}  // namespace

void Q5KGemvRef(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; ++r) y[r] = DotRow(w + r * row_stride, x, n_blocks);
}

void Q5KGemmRef(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    Q5KGemvRef(w, row_stride, rows, x + t * x_stride, n_blocks, y + t * y_stride);
  }
}

}  // namespace cpubrrr
