// AVX-512 VNNI Q4_K x Q8_K kernels; call only where the CPU has AVX-512 F/BW/VL/VNNI.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_AVX512_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_AVX512_H_

#include <cstddef>

#include "quant/q4_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q4KGemvFn (kernels/q4_k/q4_k_kernels.h): y[r] = dot(row r, x), in ggml's x86 float order
// (kernels/kquant/ggml_x86_order.h), within DotErrorBound of the oracle.
// Precondition: the CPU has AVX-512 F/BW/VL/VNNI.
void Q4KGemvAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t n_blocks, float* y);

// Q4KGemmFn: y[t * y_stride + r] = dot(row r, x + t * x_stride): below
// Avx512LaneTileFrom() tokens Q4KGemvAvx512's bits per token, from it on the oracle's.
// Precondition: the CPU has AVX-512 F/BW/VL/VNNI.
void Q4KGemmAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

// The K-quant lane tile that Q4KGemmAvx512 runs from Avx512LaneTileFrom() tokens on
// (q4_k_gemm_avx512.cc), the oracle's bits for any token count.
void Q4KLaneGemmAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                       size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                       size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_AVX512_H_
