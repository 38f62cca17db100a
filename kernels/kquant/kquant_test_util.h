// Test harness shared by the Q4_K and Q6_K kernel tests: random operands, variant-vs-oracle runs.
#ifndef CPUBRRR_KERNELS_KQUANT_KQUANT_TEST_UTIL_H_
#define CPUBRRR_KERNELS_KQUANT_KQUANT_TEST_UTIL_H_

#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "quant/q8_k.h"
#include "quant/test_util.h"

namespace cpubrrr::testing {

// Returns n_tokens rows of activations, x_stride blocks apart (the gap blocks are
// random bytes), each the Q8_K quantization of n_blocks * 256 normal floats.
inline std::vector<BlockQ8K> RandomActivations(size_t n_tokens, size_t x_stride, size_t n_blocks,
                                               std::mt19937& rng) {
  std::vector<BlockQ8K> x = RandomBlocks<BlockQ8K>(n_tokens * x_stride, rng, [](BlockQ8K&) {});
  for (size_t t = 0; t < n_tokens; ++t) {
    const std::vector<float> f = RandomFloats(Dist::kNormal, n_blocks * kQ8KBlockSize, kQ8KBlockSize, rng);
    QuantizeRowQ8K(f.data(), x.data() + t * x_stride, static_cast<int64_t>(f.size()));
  }
  return x;
}

// A guard value in y that no kernel may overwrite (a NaN with a payload).
inline float Sentinel() {
  constexpr uint32_t kBits = 0x7FC0DEADu;
  float f;
  std::memcpy(&f, &kBits, sizeof(f));
  return f;
}

// Runs `ours` and `ref` gemv kernels (same signature) on one problem; returns "" when y
// matches bit for bit and the slots after y[rows - 1] are untouched, else a message.
template <typename GemvFn, typename Block>
std::string GemvDiff(GemvFn ours, GemvFn ref, const std::vector<Block>& w, size_t row_stride,
                     size_t rows, const std::vector<BlockQ8K>& x, size_t n_blocks) {
  constexpr size_t kGuard = 9;
  std::vector<float> a(rows + kGuard, Sentinel()), b(rows + kGuard, Sentinel());
  ours(w.data(), row_stride, rows, x.data(), n_blocks, a.data());
  ref(w.data(), row_stride, rows, x.data(), n_blocks, b.data());
  return FloatBitsDiff(a.data(), b.data(), a.size());
}

// Runs `ours` and `ref` gemm kernels on one problem; y rows are y_stride floats apart and
// the gaps must stay untouched. Returns "" when everything matches bit for bit.
template <typename GemmFn, typename Block>
std::string GemmDiff(GemmFn ours, GemmFn ref, const std::vector<Block>& w, size_t row_stride,
                     size_t rows, const std::vector<BlockQ8K>& x, size_t x_stride, size_t n_tokens,
                     size_t n_blocks, size_t y_stride) {
  std::vector<float> a(n_tokens * y_stride, Sentinel()), b(n_tokens * y_stride, Sentinel());
  ours(w.data(), row_stride, rows, x.data(), x_stride, n_tokens, n_blocks, a.data(), y_stride);
  ref(w.data(), row_stride, rows, x.data(), x_stride, n_tokens, n_blocks, b.data(), y_stride);
  return FloatBitsDiff(a.data(), b.data(), a.size());
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_KQUANT_KQUANT_TEST_UTIL_H_
