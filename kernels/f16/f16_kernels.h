// POD table of one IEEE fp16-weight kernel variant: products with f32 activations, row fetch.
#ifndef CPUBRRR_KERNELS_F16_F16_KERNELS_H_
#define CPUBRRR_KERNELS_F16_F16_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "kernels/common/cpu_features.h"

namespace cpubrrr {

// Weights are rows of IEEE fp16 bit patterns (uint16_t); a row holds n values and rows
// are row_stride values apart. Activations stay f32 (no activation quantization).
struct F16Kernels {
  const char* name;      // "ref", "hwy"
  CpuFeatures required;  // features the variant needs; Highway dispatches inside
  // Writes y[r] = dot(row r, x) over n columns for r < rows.
  // Preconditions: row_stride >= n; y does not overlap w or x.
  void (*gemv)(const uint16_t* w, size_t row_stride, size_t rows, const float* x,
               size_t n, float* y);
  // Writes y[t * y_stride + r] = dot(row r, x + t * x_stride) for r < rows,
  // t < n_tokens, each row read once per tile of tokens; for every token the result
  // equals gemv's bit for bit. Preconditions: x_stride >= n, y_stride >= rows.
  void (*gemm)(const uint16_t* w, size_t row_stride, size_t rows, const float* x,
               size_t x_stride, size_t n_tokens, size_t n, float* y, size_t y_stride);
  // Writes out[i] = row[i] as float for i < n (exact): the embedding row fetch.
  void (*row_to_f32)(const uint16_t* row, size_t n, float* out);
};

// The variants, each defined by its own library (f16_ref, f16_hwy).
extern const F16Kernels kF16KernelsRef;
extern const F16Kernels kF16KernelsHwy;

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F16_F16_KERNELS_H_
