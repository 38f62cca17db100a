// Scalar oracle of the MXFP4 x Q8_0 kernels: the definition of correct.
#include "kernels/mxfp4/mxfp4_kernels.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// Returns the dot product of one weight row and x: an int32 dot of the doubled E2M1
// values with the activation quants per block, then one float step per block,
// sum += (2^(e-128) * d_x) * isum, in block order.
float DotRow(const BlockMxfp4* w, const BlockQ8_0* x, size_t n_blocks) {
  constexpr int kHalf = kMxfp4BlockSize / 2;
  float sum = 0.0f;
  for (size_t b = 0; b < n_blocks; ++b) {
    int32_t isum = 0;
    for (int j = 0; j < kHalf; ++j) {
      isum += kMxfp4DoubledValues[w[b].qs[j] & 0x0F] * x[b].qs[j];
      isum += kMxfp4DoubledValues[w[b].qs[j] >> 4] * x[b].qs[j + kHalf];
    }
    sum += (E8m0ToFp32Half(w[b].e) * Fp16ToFp32(x[b].d)) * static_cast<float>(isum);
  }
  return sum;
}

}  // namespace

void Mxfp4GemvRef(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; ++r) y[r] = DotRow(w + r * row_stride, x, n_blocks);
}

void Mxfp4GemmRef(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                  size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    Mxfp4GemvRef(w, row_stride, rows, x + t * x_stride, n_blocks, y + t * y_stride);
  }
}

}  // namespace cpubrrr
