// Scalar Q6_K x Q8_K oracle: the definition of a correct result.
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_REF_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_REF_H_

#include <cstddef>

#include "quant/q6_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q6KGemvFn (kernels/q6_k/q6_k_kernels.h): y[r] = dot(row r, x), one scalar block at a
// time in the order the contract states.
void Q6KGemvRef(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y);

// Q6KGemmFn: y[t * y_stride + r] = dot(row r, x + t * x_stride), token by token.
void Q6KGemmRef(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_REF_H_
