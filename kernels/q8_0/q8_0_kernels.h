// POD table of one Q8_0 kernel variant, and the entry points each variant library defines.
#ifndef CPUBRRR_KERNELS_Q8_0_Q8_0_KERNELS_H_
#define CPUBRRR_KERNELS_Q8_0_Q8_0_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "kernels/common/gemm_bits.h"
#include "quant/q8_0.h"

namespace cpubrrr {

// Quantizes n_blocks * 32 floats of x into n_blocks Q8_0 activation blocks, as ggml does
// on x86 (its AVX quantize_row_q8_0): amax = max|x|, d = fp16(amax / 127), and each quant
// is x * (127 / amax) (0 when amax is 0) rounded to nearest with ties to even. This
// differs from QuantizeRowQ8_0 (ggml's reference and weight encoder: x * (1 / d), ties
// away from zero) in about one quant in 10^5; with the same rule as llama.cpp's
// activations, our matmuls see the codes llama.cpp's do (docs/MODELS.md, Numerics).
// Preconditions: every x is finite, and each block's max|x| is 0 or at least 2^-100 (so
// 127 / max|x| is a finite float).
using Q8_0QuantizeFn = void (*)(const float* x, BlockQ8_0* y, size_t n_blocks);

// Writes y[r] = dot(row r of w, x) for r < rows. Row r starts at w + r * row_stride
// and holds n_blocks blocks; x holds n_blocks blocks. Preconditions: row_stride >=
// n_blocks; no activation quant is -128 (the quantizer yields -127..127).
using Q8_0GemvFn = void (*)(const BlockQ8_0* w, size_t row_stride, size_t rows,
                            const BlockQ8_0* x, size_t n_blocks, float* y);

// Writes y[t * y_stride + r] = dot(row r of w, x + t * x_stride) for r < rows and
// t < n_tokens, reading each weight block once per tile of tokens. Strides count
// blocks (x) and floats (y). Preconditions as for the gemv.
using Q8_0GemmFn = void (*)(const BlockQ8_0* w, size_t row_stride, size_t rows,
                            const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                            size_t n_blocks, float* y, size_t y_stride);

// One variant: its name, the CpuFeature bits it needs (kernels/common/cpu_features.h)
// and its entry points. Every pointer is non-null.
struct Q8_0Kernels {
  const char* name;
  uint32_t required;
  Q8_0QuantizeFn quantize;
  Q8_0GemvFn gemv;
  Q8_0GemmFn gemm;
  // From this many tokens on the gemm equals the oracle bit for bit on every input (the
  // AVX-512 lane tile and `ref`: from 1; the AVX2 lane tile: kQ8_0Avx2LaneTileFrom); below, and always when kGemmIsGemv, it equals the
  // variant's gemv per token bit for bit.
  size_t oracle_gemm_from;
};

// The AVX2 gemm runs the gemv's row tile below this many tokens, the AVX2 lane tile from
// it on.
inline constexpr size_t kQ8_0Avx2LaneTileFrom = 4;

// Entry points of the variant libraries (:q8_0_ref, :q8_0_hwy, :q8_0_avx2 and :q8_0_avx512 on x86-64,
// :q8_0_neon and :q8_0_sme on aarch64). Declared for every target; only built ones are
// defined.
void QuantizeQ8_0Ref(const float* x, BlockQ8_0* y, size_t n_blocks);
void Q8_0GemvRef(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t n_blocks, float* y);
void Q8_0GemmRef(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                 size_t y_stride);

void QuantizeQ8_0Hwy(const float* x, BlockQ8_0* y, size_t n_blocks);
void Q8_0GemvHwy(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t n_blocks, float* y);
void Q8_0GemmHwy(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                 size_t y_stride);

void Q8_0GemvAvx2(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t n_blocks, float* y);
void Q8_0GemmAvx2(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                  size_t y_stride);

// The lane-tile gemm behind Q8_0GemmAvx2 (the oracle's bits; :q8_0_gemm_avx2).
void Q8_0LaneGemmAvx2(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                      size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                      size_t y_stride);

// The same built for AVX2 with AVX-VNNI (:q8_0_avx_vnni, :q8_0_gemm_avx_vnni): Q8_0GemvAvx2's
// and Q8_0GemmAvx2's bits, fewer instructions per weight byte.
void Q8_0GemvAvxVnni(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                     size_t n_blocks, float* y);
void Q8_0GemmAvxVnni(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                     size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                     size_t y_stride);
void Q8_0LaneGemmAvxVnni(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                         size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                         size_t y_stride);

void QuantizeQ8_0Avx512(const float* x, BlockQ8_0* y, size_t n_blocks);
void Q8_0GemvAvx512(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                    size_t n_blocks, float* y);
void Q8_0GemmAvx512(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                    size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                    size_t y_stride);

void QuantizeQ8_0Neon(const float* x, BlockQ8_0* y, size_t n_blocks);
void Q8_0GemvNeon(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t n_blocks, float* y);
void Q8_0GemmNeon(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                  size_t y_stride);

// SME (streaming outer products; see q8_0_sme.cc). The gemv is the gemm on one token, so
// a token's result has the same bits either way; the table entry quantizes with
// QuantizeQ8_0Neon.
void Q8_0GemvSme(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t n_blocks, float* y);
void Q8_0GemmSme(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                 size_t y_stride);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_0_Q8_0_KERNELS_H_
