// Scalar IEEE fp16-weight products, the definition of correct: exact products summed in double.
#include "kernels/f16/f16_kernels.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

float Dot(const uint16_t* row, const float* x, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += static_cast<double>(Fp16ToFp32(row[i])) * x[i];
  return static_cast<float>(sum);
}

void Gemv(const uint16_t* w, size_t row_stride, size_t rows, const float* x, size_t n,
          float* y) {
  for (size_t r = 0; r < rows; ++r) y[r] = Dot(w + r * row_stride, x, n);
}

void Gemm(const uint16_t* w, size_t row_stride, size_t rows, const float* x,
          size_t x_stride, size_t n_tokens, size_t n, float* y, size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    Gemv(w, row_stride, rows, x + t * x_stride, n, y + t * y_stride);
  }
}

void RowToF32(const uint16_t* row, size_t n, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = Fp16ToFp32(row[i]);
}

}  // namespace

const F16Kernels kF16KernelsRef = {"ref", kCpuNone, Gemv, Gemm, RowToF32};

}  // namespace cpubrrr
