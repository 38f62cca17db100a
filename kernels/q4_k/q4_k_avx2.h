// AVX2 Q4_K x Q8_K kernels, bit-identical to the oracle (x86-64 only).
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_AVX2_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_AVX2_H_

#include <cstddef>

#include "quant/q4_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// Q4KGemvFn (kernels/q4_k/q4_k_kernels.h).
void Q4KGemvAvx2(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y);
// Q4KGemmFn: below kQ4KAvx2LaneTileFrom tokens each weight block read once for all of
// them, from there on Q4KLaneGemmAvx2.
void Q4KGemmAvx2(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

// The token count from which the AVX2 gemms of both layouts run the lane tile (eight rows
// decoded once per call for all tokens); the results are the oracle's either way.
inline constexpr size_t kQ4KAvx2LaneTileFrom = 4;

// Q4KGemmFn on the lane tile (:q4_k_gemm_avx2, q4_k_gemm_avx2.cc), for any token count.
void Q4KLaneGemmAvx2(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                     size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

// AVX2 with AVX-VNNI: the same gemv and gemm built for AVX-VNNI (:q4_k_avx_vnni, with
// the lane tile's build Q4KLaneGemmAvxVnni, :q4_k_gemm_avx_vnni); the same bits (the oracle's).
void Q4KGemvAvxVnni(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                    size_t n_blocks, float* y);
void Q4KGemmAvxVnni(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                    size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);
void Q4KLaneGemmAvxVnni(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                        size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_AVX2_H_
