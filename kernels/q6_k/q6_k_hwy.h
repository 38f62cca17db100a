// Portable Highway Q6_K x Q8_K kernels (run-time dispatch over the compiled targets).
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_HWY_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_HWY_H_

#include <cstddef>

#include "quant/q6_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q6KGemvFn (kernels/q6_k/q6_k_kernels.h): y[r] = dot(row r, x), bit-identical to the
// oracle.
void Q6KGemvHwy(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y);

// Q6KGemmFn: y[t * y_stride + r] = dot(row r, x + t * x_stride), bit-identical to the
// oracle.
void Q6KGemmHwy(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_HWY_H_
