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
// Q5KGemmFn: below kQ5KAvx2LaneTileFrom tokens each weight block read once for all of
// them, from there on Q5KLaneGemmAvx2.
void Q5KGemmAvx2(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

// The token count from which the AVX2 gemm runs the lane tile (eight rows decoded once per
// call for all tokens); the results are the oracle's either way.
inline constexpr size_t kQ5KAvx2LaneTileFrom = 4;

// Q5KGemmFn on the lane tile (:q5_k_gemm_avx2), for any token count.
void Q5KLaneGemmAvx2(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                     size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

// AVX2 with AVX-VNNI: the same gemv and gemm built for AVX-VNNI (:q5_k_avx_vnni, with
// the lane tile's build Q5KLaneGemmAvxVnni, :q5_k_gemm_avx_vnni); the same bits (the oracle's).
void Q5KGemvAvxVnni(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                    size_t n_blocks, float* y);
void Q5KGemmAvxVnni(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                    size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);
void Q5KLaneGemmAvxVnni(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                        size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q5_K_Q5_K_AVX2_H_
