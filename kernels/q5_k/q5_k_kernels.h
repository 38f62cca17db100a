// POD table of one Q5_K x Q8_K matrix-vector / matrix-matrix kernel variant.
#ifndef CPUBRRR_KERNELS_Q5_K_Q5_K_KERNELS_H_
#define CPUBRRR_KERNELS_Q5_K_Q5_K_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "quant/q5_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// y[r] = dot(row r, x) for r < rows. Row r is the n_blocks blocks at w + r * row_stride;
// x holds n_blocks Q8_K blocks. Per block: isum = sum_j sc_j * dot(q_j, x_j) with the
// 5-bit quants q in 0..31 and msum = sum_j m_j * (bsums of x_j), both int32, then one
// float step sum += x.d * (d * isum - dmin * msum), blocks in order from sum = 0.
// Preconditions (gemv and gemm): n_blocks >= 1; rows >= 1 and n_tokens >= 1 where given.
using Q5KGemvFn = void (*)(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                           size_t n_blocks, float* y);

// y[t * y_stride + r] = dot(row r, x + t * x_stride) for t < n_tokens, r < rows, each
// computed exactly as the float step above; x_stride is in blocks, y_stride in floats.
using Q5KGemmFn = void (*)(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                           size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                           size_t y_stride);

struct Q5KKernels {
  const char* name;   // "avx512_vnni", "avx2", "neon_dot", "hwy", "ref"
  uint32_t required;  // CpuFeature bits (kernels/common/cpu_features.h) the variant needs
  Q5KGemvFn gemv;
  Q5KGemmFn gemm;
  // The gemv is bit-identical to the oracle (Q5KGemvRef) when this is false; when true
  // (avx512_vnni) it follows ggml's x86 order instead (ggml_vec_dot_q5_K_q8_K,
  // kernels/kquant/ggml_x86_order.h), the order that makes our decode outputs equal
  // llama.cpp's, within DotErrorBound of the oracle.
  bool gemv_ggml_x86_order;
  // From this many tokens on the gemm equals the oracle (Q5KGemmRef) bit for bit; below,
  // it equals the variant's gemv per token bit for bit (1 for every variant today).
  size_t oracle_gemm_from;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q5_K_Q5_K_KERNELS_H_
