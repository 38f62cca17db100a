// Test harness shared by the Q4_K and Q6_K kernel tests: random operands, variant-vs-oracle runs.
#ifndef CPUBRRR_KERNELS_KQUANT_KQUANT_TEST_UTIL_H_
#define CPUBRRR_KERNELS_KQUANT_KQUANT_TEST_UTIL_H_

#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/common/dot_test_util.h"
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

// Checks a gemv whose float steps follow another order than the oracle's (ggml's x86
// order, kernels/kquant/ggml_x86_order.h) on one problem: runs it on each of n_tokens
// tokens, the oracle's gemm and `model`'s gemm (a scalar model of the variant's order).
// Returns "" when the gemv's outputs equal the model's bit for bit, lie within
// DotErrorBound(abs_sum(row, token), n_blocks) of the oracle's, and the gaps in y stay
// untouched; else a message naming the first failure.
template <typename GemvFn, typename GemmFn, typename Block, typename AbsSumFn>
std::string OrderedGemvDiff(GemvFn gemv, GemmFn oracle, GemmFn model, const std::vector<Block>& w,
                            size_t row_stride, size_t rows, const std::vector<BlockQ8K>& x,
                            size_t x_stride, size_t n_tokens, size_t n_blocks, size_t y_stride,
                            AbsSumFn abs_sum) {
  const size_t n = n_tokens * y_stride;
  std::vector<float> got(n, Sentinel()), want(n, Sentinel()), exact(n, Sentinel());
  for (size_t t = 0; t < n_tokens; ++t) {
    gemv(w.data(), row_stride, rows, x.data() + t * x_stride, n_blocks, got.data() + t * y_stride);
  }
  oracle(w.data(), row_stride, rows, x.data(), x_stride, n_tokens, n_blocks, want.data(), y_stride);
  model(w.data(), row_stride, rows, x.data(), x_stride, n_tokens, n_blocks, exact.data(), y_stride);
  const std::string diff = FloatBitsDiff(got.data(), exact.data(), n);
  if (!diff.empty()) return "gemv vs model: " + diff;
  for (size_t t = 0; t < n_tokens; ++t) {
    for (size_t r = 0; r < rows; ++r) {
      const size_t i = t * y_stride + r;
      const double a = abs_sum(w.data() + r * row_stride, x.data() + t * x_stride, n_blocks);
      const double bound = DotErrorBound(a, n_blocks);
      if (!(std::fabs(double{got[i]} - want[i]) <= bound)) {
        return "token " + std::to_string(t) + " row " + std::to_string(r) + ": " +
               std::to_string(got[i]) + " vs oracle " + std::to_string(want[i]) + ", bound " +
               std::to_string(bound);
      }
    }
  }
  return "";
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_KQUANT_KQUANT_TEST_UTIL_H_
