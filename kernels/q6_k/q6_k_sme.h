// aarch64 SME Q6_K x Q8_K kernels (inline asm, built only for aarch64).
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_SME_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_SME_H_

#include <cstddef>

#include "quant/q6_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q6KGemmFn (kernels/q6_k/q6_k_kernels.h): y[t * y_stride + r] = dot(row r, x + t * x_stride),
// bit-identical to the oracle. Precondition: the CPU has SME.
void Q6KGemmSme(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

// Q6KGemvFn: y[r] = dot(row r, x), the gemm on one token (same bits). Precondition: SME.
void Q6KGemvSme(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_SME_H_
