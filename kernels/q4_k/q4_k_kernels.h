// POD table of one Q4_K x Q8_K matrix-vector / matrix-matrix kernel variant.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_KERNELS_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "quant/q4_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// y[r] = dot(row r, x) for r < rows. Row r is the n_blocks blocks at w + r * row_stride;
// x holds n_blocks Q8_K blocks. Per block: isum = sum_j sc_j * dot(q_j, x_j) and
// msum = sum_j m_j * (bsums of x_j), both int32, then one float step
// sum += x.d * (d * isum - dmin * msum), blocks in order from sum = 0.
// Preconditions (gemv and gemm): n_blocks >= 1; rows >= 1 and n_tokens >= 1 where given.
using Q4KGemvFn = void (*)(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                           size_t n_blocks, float* y);

// y[t * y_stride + r] = dot(row r, x + t * x_stride) for t < n_tokens, r < rows, each
// computed exactly as the float step above; x_stride is in blocks, y_stride in floats.
using Q4KGemmFn = void (*)(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                           size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                           size_t y_stride);

struct Q4KKernels {
  const char* name;   // "avx512_vnni", "avx2", "sme", "neon_dot", "hwy", "ref"
  uint32_t required;  // CpuFeature bits (kernels/common/cpu_features.h) the variant needs
  Q4KGemvFn gemv;
  Q4KGemmFn gemm;
  // The gemv is bit-identical to the oracle (Q4KGemvRef) when this is false; when true
  // (avx512_vnni) it follows ggml's x86 order instead (ggml_vec_dot_q4_K_q8_K,
  // kernels/kquant/ggml_x86_order.h), the order that makes our decode outputs equal
  // llama.cpp's, within DotErrorBound of the oracle.
  bool gemv_ggml_x86_order;
  // From this many tokens on the gemm equals the oracle (Q4KGemmRef) bit for bit; below,
  // it equals the variant's gemv per token bit for bit.
  size_t oracle_gemm_from;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_KERNELS_H_
