// aarch64 SME Q4_K x Q8_K kernels (inline asm, built only for aarch64).
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_SME_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_SME_H_

#include <cstddef>

#include "quant/q4_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q4KGemmFn (kernels/q4_k/q4_k_kernels.h): y[t * y_stride + r] = dot(row r, x + t * x_stride),
// bit-identical to the oracle. Precondition: the CPU has SME.
void Q4KGemmSme(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

// Q4KGemvFn: y[r] = dot(row r, x), the gemm on one token (same bits). Precondition: SME.
void Q4KGemvSme(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_SME_H_
