// POD table of one MXFP4 x Q8_0 kernel variant, and the entry points each variant defines.
#ifndef CPUBRRR_KERNELS_MXFP4_MXFP4_KERNELS_H_
#define CPUBRRR_KERNELS_MXFP4_MXFP4_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "kernels/common/gemm_bits.h"
#include "quant/mxfp4.h"
#include "quant/q8_0.h"

namespace cpubrrr {

// Writes y[r] = dot(row r of w, x) for r < rows. Row r starts at w + r * row_stride and
// holds n_blocks MXFP4 blocks; x holds n_blocks Q8_0 blocks (from the Q8_0 activation
// quantizer). Preconditions: row_stride >= n_blocks; no activation quant is -128.
using Mxfp4GemvFn = void (*)(const BlockMxfp4* w, size_t row_stride, size_t rows,
                             const BlockQ8_0* x, size_t n_blocks, float* y);

// Writes y[t * y_stride + r] = dot(row r of w, x + t * x_stride) for r < rows and
// t < n_tokens, decoding each weight block once per tile of tokens. Strides count
// blocks (x) and floats (y). Preconditions as for the gemv.
using Mxfp4GemmFn = void (*)(const BlockMxfp4* w, size_t row_stride, size_t rows,
                             const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                             size_t n_blocks, float* y, size_t y_stride);

// One variant: its name, the CpuFeature bits it needs (kernels/common/cpu_features.h)
// and its entry points. Every pointer is non-null.
struct Mxfp4Kernels {
  const char* name;
  uint32_t required;
  Mxfp4GemvFn gemv;
  Mxfp4GemmFn gemm;
  // From this many tokens on the gemm equals the oracle bit for bit on every input (the
  // AVX-512 and AVX2 lane tiles, `ref`); below, and always when kGemmIsGemv, it equals the variant's
  // gemv per token bit for bit.
  size_t oracle_gemm_from;
};

// The AVX2 gemm runs the gemv's row tile below this many tokens, the AVX2 lane tile from
// it on.
inline constexpr size_t kMxfp4Avx2LaneTileFrom = 4;

// Entry points of the variant libraries (:mxfp4_ref, :mxfp4_hwy, :mxfp4_avx2 and
// :mxfp4_avx512 on x86-64, :mxfp4_neon and :mxfp4_sme on aarch64). Declared for every target; only
// built ones exist.
void Mxfp4GemvRef(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t n_blocks, float* y);
void Mxfp4GemmRef(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                  size_t y_stride);

void Mxfp4GemvHwy(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t n_blocks, float* y);
void Mxfp4GemmHwy(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                  size_t y_stride);

void Mxfp4GemvAvx2(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                   size_t n_blocks, float* y);
void Mxfp4GemmAvx2(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                   size_t y_stride);

// The lane-tile gemm behind Mxfp4GemmAvx2 (the oracle's bits; :mxfp4_gemm_avx2).
void Mxfp4LaneGemmAvx2(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                       size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                       size_t y_stride);

// AVX2 with AVX-VNNI: the same gemv and gemm built for AVX-VNNI (:mxfp4_avx_vnni, with the
// lane tile's build :mxfp4_gemm_avx_vnni); Mxfp4GemvAvx2's and Mxfp4GemmAvx2's bits, fewer
// instructions per weight byte.
void Mxfp4GemvAvxVnni(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                      size_t n_blocks, float* y);
void Mxfp4GemmAvxVnni(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                      size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                      size_t y_stride);
void Mxfp4LaneGemmAvxVnni(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                          size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                          size_t y_stride);

void Mxfp4GemvAvx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t n_blocks, float* y);
void Mxfp4GemmAvx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                     size_t n_blocks, float* y, size_t y_stride);
// The lane-tile gemm behind Mxfp4GemmAvx512 (the oracle's bits; :mxfp4_gemm_avx512).
void Mxfp4LaneGemmAvx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                         const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                         size_t n_blocks, float* y, size_t y_stride);

void Mxfp4GemvNeon(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                   size_t n_blocks, float* y);
void Mxfp4GemmNeon(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                   size_t y_stride);

// SME (aarch64, :mxfp4_sme). The gemv is the gemm on one token, so a token's result has
// the same bits either way.
void Mxfp4GemvSme(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t n_blocks, float* y);
void Mxfp4GemmSme(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                  size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_MXFP4_MXFP4_KERNELS_H_
