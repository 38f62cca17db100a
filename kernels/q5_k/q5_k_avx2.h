// AVX2 Q5_K x Q8_K kernels, bit-identical to the oracle (x86-64 only).
#ifndef CPUBRRR_KERNELS_Q5_K_Q5_K_AVX2_H_
#define CPUBRRR_KERNELS_Q5_K_Q5_K_AVX2_H_

#include <cstddef>

#include "quant/q5_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q5KGemvFn (kernels/q5_k/q5_k_kernels.h). Precondition: the CPU has AVX2, FMA and F16C.
void Q5KGemvAvx2(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y);
// Q5KGemmFn: each weight block read once for up to four tokens.
void Q5KGemmAvx2(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q5_K_Q5_K_AVX2_H_
