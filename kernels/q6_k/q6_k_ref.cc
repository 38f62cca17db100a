// Scalar Q6_K x Q8_K oracle: integer sums per block, one float step per 256 weights.
#include "kernels/q6_k/q6_k_ref.h"

#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// Writes the 256 quants (0..63) of `b` in element order, per the layout in quant/q6_k.h.
void DecodeQuants(const BlockQ6K& b, int* q) {
  for (int h = 0; h < 2; ++h) {
    const uint8_t* ql = b.ql + 64 * h;
    const uint8_t* qh = b.qh + 32 * h;
    int* out = q + 128 * h;
    for (int l = 0; l < 32; ++l) {
      out[l] = (ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4);
      out[l + 32] = (ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4);
      out[l + 64] = (ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4);
      out[l + 96] = (ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4);
    }
  }
}

// Returns the dot product of one row of n_blocks blocks with x, per the contract in
// q6_k_kernels.h.
float DotRow(const BlockQ6K* w, const BlockQ8K* x, size_t n_blocks) {
  float sum = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    int q[kQ6KBlockSize];
    DecodeQuants(w[b], q);
    int32_t isum = 0;
    for (int s = 0; s < 16; ++s) {
      int32_t dot = 0;
      for (int i = 16 * s; i < 16 * s + 16; ++i) dot += (q[i] - 32) * x[b].qs[i];
      isum += w[b].scales[s] * dot;
    }
    sum += x[b].d * (Fp16ToFp32(w[b].d) * static_cast<float>(isum));
  }
  return sum;
}

}  // namespace

void Q6KGemvRef(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; ++r) y[r] = DotRow(w + r * row_stride, x, n_blocks);
}

void Q6KGemmRef(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    Q6KGemvRef(w, row_stride, rows, x + t * x_stride, n_blocks, y + t * y_stride);
  }
}

}  // namespace cpubrrr
