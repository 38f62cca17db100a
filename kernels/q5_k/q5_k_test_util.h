// Random Q5_K weights, the block of largest values and a scalar model of ggml's x86 order.
#ifndef CPUBRRR_KERNELS_Q5_K_Q5_K_TEST_UTIL_H_
#define CPUBRRR_KERNELS_Q5_K_Q5_K_TEST_UTIL_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "quant/fp16.h"
#include "quant/q5_k.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

namespace cpubrrr::testing {

// Returns random blocks (every quant, fifth-bit, scale and min pattern) whose d and dmin
// lie in 2^-14 .. 2^-4, the range real files use, so no float step overflows.
inline std::vector<BlockQ5K> RandomQ5KWeights(size_t count, std::mt19937& rng) {
  return RandomBlocks<BlockQ5K>(count, rng, [&](BlockQ5K& b) {
    std::uniform_real_distribution<float> scale(1.0f / 16384, 1.0f / 16);
    b.d = Fp32ToFp16(scale(rng));
    b.dmin = Fp32ToFp16(scale(rng));
  });
}

// Returns a block with every scale, min and quant at its maximum (63, 63, 31), d = 1 and
// dmin = 0.5.
inline BlockQ5K FullQ5KBlock() {
  BlockQ5K full{};
  full.d = 0x3C00;     // 1.0
  full.dmin = 0x3800;  // 0.5
  std::memset(full.scales, 0xFF, sizeof(full.scales));
  std::memset(full.qh, 0xFF, sizeof(full.qh));
  std::memset(full.qs, 0xFF, sizeof(full.qs));
  return full;
}

// Scalar model of ggml's x86 order for Q5_K (ggml_vec_dot_q5_K_q8_K's AVX2 path, the one
// every x86 CPU build of llama.cpp runs; kernels/kquant/ggml_x86_order.h), written from
// that description independently of the AVX-512 code: eight int32 lanes per block (lane
// u: values 32c + 4u .. 32c + 4u + 3 of every sub-block c) with one fused multiply-add per
// lane and block, and the mins as one integer sum per block fused into one float.
inline float GgmlOrderQ5KDot(const BlockQ5K* w, const BlockQ8K* x, size_t n_blocks) {
  float acc[8] = {}, summs = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    int32_t lanes[8] = {}, msum = 0;
    for (int c = 0; c < 8; ++c) {
      uint8_t sc, m;
      GetScaleMinK4(c, w[b].scales, &sc, &m);
      for (int i = 0; i < 32; ++i) lanes[i / 4] += sc * Q5KQuant(w[b], c, i) * x[b].qs[32 * c + i];
      msum += m * (x[b].bsums[2 * c] + x[b].bsums[2 * c + 1]);
    }
    const float d = x[b].d * Fp16ToFp32(w[b].d);
    const float dmin = -x[b].d * Fp16ToFp32(w[b].dmin);
    for (int u = 0; u < 8; ++u) acc[u] = std::fma(d, static_cast<float>(lanes[u]), acc[u]);
    summs = std::fma(dmin, static_cast<float>(msum), summs);
  }
  const float lanes =
      ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
  return lanes + summs;
}

// GgmlOrderQ5KDot for every row and token, with the gemm's arguments (Q5KGemmFn).
inline void GgmlOrderQ5KGemm(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                             size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                             size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    for (size_t r = 0; r < rows; ++r) {
      y[t * y_stride + r] = GgmlOrderQ5KDot(w + r * row_stride, x + t * x_stride, n_blocks);
    }
  }
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_Q5_K_Q5_K_TEST_UTIL_H_
