// The AVX-512 gemm on repacked Q8_0 gives Q8_0GemmAvx512's bits (the oracle's), and the
// repacked variant has no gemv (one token reads the file's rows).
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/testing/repacked_test_util.h"
#include "kernels/q8_0/q8_0.h"
#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

struct Q8_0Repacked {
  using Block = BlockQ8_0;
  using Shape = Q8_0RepackedShape;
  using Activation = BlockQ8_0;
  using GemvFn = Q8_0GemvFn;
  using GemmFn = Q8_0GemmFn;
  static constexpr auto Repack = RepackQ8_0;
  static constexpr const char* kName = "repacked avx512_vnni";
  static constexpr uint32_t kRequired = kCpuAvx512 | kCpuAvx512Vnni;
  static constexpr auto Gemm = Q8_0RepackedGemmAvx512;
};

class Q8_0RepackedTest : public testing::RepackedKernelTest<Q8_0Repacked> {};

// Weights: quants over the whole int8 range (-128 included, as weight files may hold it)
// and fp16 scales of every finite magnitude.
std::vector<BlockQ8_0> RandomWeights(size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(-128, 127);
  std::vector<BlockQ8_0> w = testing::RandomActivations(n, rng);
  for (BlockQ8_0& b : w) {
    for (int8_t& q : b.qs) q = static_cast<int8_t>(byte(rng));
  }
  return w;
}

// The gemm against Q8_0GemmAvx512 (the oracle's bits) on realistic inputs: whole and
// partial 32-row panels, a lone last group of 16, starting groups past 0, strided tokens
// and rows.
TEST_F(Q8_0RepackedTest, GemmGivesTheLaneTileGemmsBits) {
  std::mt19937 rng(testing::kKernelSeed + 2);
  for (size_t rows : {3, 16, 17, 48, 300}) {
    for (size_t n_blocks : {1, 9, 17, 90}) {
      const auto w = RandomWeights(rows * n_blocks, rng);
      for (size_t n_tokens : {1, 2, 4, 5, 17}) {
        const size_t x_stride = n_blocks + 1;
        const auto x = testing::RandomActivations(n_tokens * x_stride, rng);
        CompareGemm(w, {rows, n_blocks}, x.data(), x_stride, n_tokens, Q8_0GemmAvx512);
      }
    }
  }
}

TEST(Q8_0RepackedVariants, ServeTheGemmOnly) {
  for (const Q8_0RepackedKernels& k : AllQ8_0RepackedVariants()) {
    EXPECT_EQ(k.gemv, nullptr) << k.name;
    EXPECT_NE(k.gemm, nullptr) << k.name;
  }
}

}  // namespace
}  // namespace cpubrrr
