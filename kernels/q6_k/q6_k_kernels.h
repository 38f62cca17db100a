// POD table of one Q6_K x Q8_K matrix-vector / matrix-matrix kernel variant.
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_KERNELS_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "quant/q6_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// y[r] = dot(row r, x) for r < rows. Row r is the n_blocks blocks at w + r * row_stride;
// x holds n_blocks Q8_K blocks. Per block: isum = sum_s scales_s * dot(q_s - 32, x_s)
// over the 16 sub-blocks of 16 (int32), then one float step sum += x.d * (d * isum),
// blocks in order from sum = 0.
// Preconditions (gemv and gemm): n_blocks >= 1; rows >= 1 and n_tokens >= 1 where given.
using Q6KGemvFn = void (*)(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                           size_t n_blocks, float* y);

// y[t * y_stride + r] = dot(row r, x + t * x_stride) for t < n_tokens, r < rows, each
// computed exactly as the float step above; x_stride is in blocks, y_stride in floats.
using Q6KGemmFn = void (*)(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                           size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                           size_t y_stride);

struct Q6KKernels {
  const char* name;   // "avx512_vnni", "avx_vnni", "avx2", "sme", "neon_dot", "hwy", "ref"
  uint32_t required;  // CpuFeature bits (kernels/common/cpu_features.h) the variant needs
  Q6KGemvFn gemv;
  Q6KGemmFn gemm;
  // The gemv is bit-identical to the oracle (Q6KGemvRef) when this is false; when true
  // (avx512_vnni) it follows ggml's x86 order instead (ggml_vec_dot_q6_K_q8_K,
  // kernels/kquant/ggml_x86_order.h), the order that makes our decode outputs equal
  // llama.cpp's, within DotErrorBound of the oracle.
  bool gemv_ggml_x86_order;
  // From this many tokens on the gemm equals the oracle (Q6KGemmRef) bit for bit; below,
  // it equals the variant's gemv per token bit for bit.
  size_t oracle_gemm_from;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_KERNELS_H_
