// The f32 descriptor: f32 activations, products as one DotRows per activation (ggml's f32
// dot order; a scale of 1 is exact), no repacked layout.
#include "kernels/f32/f32_format.h"

#include <cstring>

#include "kernels/f32/attention.h"

namespace cpubrrr {
namespace {

const float* Floats(const uint8_t* p) { return reinterpret_cast<const float*>(p); }

void Gemv(const void*, const uint8_t* w, size_t row_bytes, size_t rows, const uint8_t* x,
          size_t cols, float* y) {
  DotRows(Floats(x), Floats(w), row_bytes / sizeof(float), rows, cols, 1.0f, y);
}

void Gemm(const void*, const uint8_t* w, size_t row_bytes, size_t rows, const uint8_t* x,
          size_t x_row_bytes, size_t n_tokens, size_t cols, float* y, size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    Gemv(nullptr, w, row_bytes, rows, x + t * x_row_bytes, cols, y + t * y_stride);
  }
}

void DequantizeRow(const uint8_t* src, float* out, int64_t n) {
  std::memcpy(out, src, n * sizeof(float));
}

}  // namespace

const WeightFormat& F32Format() {
  static const WeightFormat format{GgmlType::kF32, 1, sizeof(float), ActFormat::kF32,
                                   ProductKernels{"dot_rows", nullptr, Gemv, Gemm},
                                   DequantizeRow, std::nullopt};
  return format;
}

}  // namespace cpubrrr
