// AVX2 Q6_K x Q8_K kernels, bit-identical to the oracle (x86-64 only).
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_AVX2_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_AVX2_H_

#include <cstddef>

#include "quant/q6_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q6KGemvFn (kernels/q6_k/q6_k_kernels.h).
void Q6KGemvAvx2(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y);
// Q6KGemmFn: each weight block read once for up to four tokens.
void Q6KGemmAvx2(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

// The same built for AVX2 with AVX-VNNI (:q6_k_avx_vnni); the same bits.
void Q6KGemvAvxVnni(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                    size_t n_blocks, float* y);
void Q6KGemmAvxVnni(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                    size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_AVX2_H_
