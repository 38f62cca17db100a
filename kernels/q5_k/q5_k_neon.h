// aarch64 NEON dotprod Q5_K x Q8_K kernels (built only for aarch64).
#ifndef CPUBRRR_KERNELS_Q5_K_Q5_K_NEON_H_
#define CPUBRRR_KERNELS_Q5_K_Q5_K_NEON_H_

#include <cstddef>

#include "quant/q5_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q5KGemvFn (kernels/q5_k/q5_k_kernels.h): y[r] = dot(row r, x), bit-identical to the
// oracle. Precondition: the CPU has the dotprod extension.
void Q5KGemvNeon(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y);

// Q5KGemmFn: y[t * y_stride + r] = dot(row r, x + t * x_stride), bit-identical to the
// oracle. Precondition: the CPU has the dotprod extension.
void Q5KGemmNeon(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q5_K_Q5_K_NEON_H_
