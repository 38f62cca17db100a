// AVX-512 VNNI Q5_K x Q8_K kernels; call only where the CPU has AVX-512 F/BW/VL/VNNI.
#ifndef CPUBRRR_KERNELS_Q5_K_Q5_K_AVX512_H_
#define CPUBRRR_KERNELS_Q5_K_Q5_K_AVX512_H_

#include <cstddef>

#include "quant/q5_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q5KGemvFn (kernels/q5_k/q5_k_kernels.h): y[r] = dot(row r, x), in ggml's x86 float order
// for Q5_K (kernels/kquant/ggml_x86_order.h), within DotErrorBound of the oracle.
// Precondition: the CPU has AVX-512 F/BW/VL/VNNI.
void Q5KGemvAvx512(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t n_blocks, float* y);

// Q5KGemmFn: y[t * y_stride + r] = dot(row r, x + t * x_stride), bit-identical to the
// oracle. Precondition: the CPU has AVX-512 F/BW/VL/VNNI.
void Q5KGemmAvx512(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q5_K_Q5_K_AVX512_H_
