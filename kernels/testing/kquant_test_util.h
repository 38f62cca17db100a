// Test harness shared by the K-quant kernel tests: random operands, variant-vs-oracle runs.
#ifndef CPUBRRR_KERNELS_TESTING_KQUANT_TEST_UTIL_H_
#define CPUBRRR_KERNELS_TESTING_KQUANT_TEST_UTIL_H_

#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/testing/variant_test_util.h"
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

// Runs `ours` and `ref` gemm kernels (or callables of their signature) on one problem; y
// rows are y_stride floats apart and the gaps must stay untouched. Returns "" when
// everything matches bit for bit.
template <typename GemmFn, typename RefFn, typename Block>
std::string GemmDiff(GemmFn ours, RefFn ref, const std::vector<Block>& w, size_t row_stride,
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

// The variant-vs-oracle fixture of one K-quant format, parameterized over its kernel
// variants. `Format` provides: Kernels (the variant table's entry type), Block, the
// oracles GemvRef and GemmRef, GgmlOrderGemm (a scalar model of ggml's x86 order), AbsSum
// (the A of DotErrorBound for one row and token) and RandomWeights(count, rng).
template <typename Format>
class KQuantVariantTest : public ::testing::TestWithParam<typename Format::Kernels> {
 protected:
  using Block = typename Format::Block;

  void SetUp() override { SkipUnlessCpuRuns(this->GetParam()); }

  // The gemv on one token of x (rows of w, row_stride apart) against the oracle: bit for
  // bit, or for a ggml-order gemv through OrderedGemvDiff. Returns "" when it passes.
  std::string GemvCheck(const std::vector<Block>& w, size_t row_stride, size_t rows,
                        const std::vector<BlockQ8K>& x, size_t n_blocks) {
    const auto& k = this->GetParam();
    if (!k.gemv_ggml_x86_order) return GemvDiff(k.gemv, Format::GemvRef, w, row_stride, rows, x, n_blocks);
    return OrderedGemvDiff(k.gemv, Format::GemmRef, Format::GgmlOrderGemm, w, row_stride, rows, x,
                           n_blocks, 1, n_blocks, rows + 9, Format::AbsSum);
  }

  // The gemm against the oracle bit for bit from the variant's oracle_gemm_from tokens on,
  // below it against the variant's gemv per token; for a ggml-order gemv, that gemv on
  // each token too.
  std::string GemmCheck(const std::vector<Block>& w, size_t row_stride, size_t rows,
                        const std::vector<BlockQ8K>& x, size_t x_stride, size_t n_tokens,
                        size_t n_blocks, size_t y_stride) {
    const auto& k = this->GetParam();
    auto gemv_per_token = [&k](const Block* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                               size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                               size_t y_stride) {
      for (size_t t = 0; t < n_tokens; ++t) {
        k.gemv(w, row_stride, rows, x + t * x_stride, n_blocks, y + t * y_stride);
      }
    };
    const std::string gemm =
        n_tokens >= k.oracle_gemm_from
            ? GemmDiff(k.gemm, Format::GemmRef, w, row_stride, rows, x, x_stride, n_tokens,
                       n_blocks, y_stride)
            : GemmDiff(k.gemm, gemv_per_token, w, row_stride, rows, x, x_stride, n_tokens,
                       n_blocks, y_stride);
    if (!gemm.empty() || !k.gemv_ggml_x86_order) return gemm;
    return OrderedGemvDiff(k.gemv, Format::GemmRef, Format::GgmlOrderGemm, w, row_stride, rows, x,
                           x_stride, n_tokens, n_blocks, y_stride, Format::AbsSum);
  }

  // Row counts around the gemv row tile (8) and block counts around 4 (the AVX-512 Q4_K
  // gemv finishes rows of up to 4 blocks another way) and 8, with rows padded to a larger
  // stride.
  void CheckGemvShapes() {
    std::mt19937 rng(kSeed);
    for (size_t n_blocks : {1, 4, 5, 7, 8, 9, 17}) {
      for (size_t rows : {1, 7, 8, 9, 17}) {
        for (size_t pad : {0, 3}) {
          const size_t row_stride = n_blocks + pad;
          const auto w = Format::RandomWeights(rows * row_stride, rng);
          const auto x = RandomActivations(1, n_blocks, n_blocks, rng);
          EXPECT_EQ(GemvCheck(w, row_stride, rows, x, n_blocks), "")
              << "seed " << kSeed << ", n_blocks " << n_blocks << ", rows " << rows << ", stride "
              << row_stride;
        }
      }
    }
  }

  // Token counts 1..17 (around the AVX-512 gemm's token tile, 6, and its multiples) and
  // block counts 1..17, with strided weights, activations and y, on a few rows.
  void CheckGemmShapes() {
    std::mt19937 rng(kSeed);
    constexpr size_t kRows = 3;
    for (size_t n_blocks : {1, 7, 8, 9, 17}) {
      for (size_t n_tokens = 1; n_tokens <= 17; ++n_tokens) {
        const size_t row_stride = n_blocks + 2, x_stride = n_blocks + 1, y_stride = kRows + 3;
        const auto w = Format::RandomWeights(kRows * row_stride, rng);
        const auto x = RandomActivations(n_tokens, x_stride, n_blocks, rng);
        EXPECT_EQ(GemmCheck(w, row_stride, kRows, x, x_stride, n_tokens, n_blocks, y_stride), "")
            << "seed " << kSeed << ", n_blocks " << n_blocks << ", tokens " << n_tokens;
      }
    }
  }

  // Row counts around the AVX-512 gemm's lane groups and panels (16, 32 rows) and token
  // counts below its lane tile (the few-token tile of Q4_K's, on 4-row tiles) and around
  // its token tile (6), with strided weights, activations and y.
  void CheckGemmAroundLaneTiles() {
    std::mt19937 rng(kSeed);
    for (size_t n_blocks : {1, 3}) {
      for (size_t rows : {15, 16, 17, 31, 32, 33}) {
        for (size_t n_tokens : {1, 2, 3, 4, 5, 6, 7, 13}) {
          const size_t row_stride = n_blocks + 1, x_stride = n_blocks + 2, y_stride = rows + 5;
          const auto w = Format::RandomWeights(rows * row_stride, rng);
          const auto x = RandomActivations(n_tokens, x_stride, n_blocks, rng);
          EXPECT_EQ(GemmCheck(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y_stride), "")
              << "seed " << kSeed << ", n_blocks " << n_blocks << ", rows " << rows << ", tokens "
              << n_tokens;
        }
      }
    }
  }

  // All-zero weight blocks and all-zero activation blocks mixed with random ones.
  void CheckZeroBlocks() {
    std::mt19937 rng(kSeed);
    constexpr size_t kRows = 11, kBlocks = 9, kTokens = 5;
    auto w = Format::RandomWeights(kRows * kBlocks, rng);
    for (size_t i = 0; i < w.size(); i += 4) w[i] = Block{};
    auto x = RandomActivations(kTokens, kBlocks, kBlocks, rng);
    for (size_t i = 1; i < x.size(); i += 3) x[i] = BlockQ8K{};
    EXPECT_EQ(GemvCheck(w, kBlocks, kRows, x, kBlocks), "");
    EXPECT_EQ(GemmCheck(w, kBlocks, kRows, x, kBlocks, kTokens, kBlocks, kRows), "");
  }
};

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_TESTING_KQUANT_TEST_UTIL_H_
