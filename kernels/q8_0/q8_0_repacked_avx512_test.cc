// The AVX-512 gemv on repacked Q8_0 gives GemvQ8_0Avx512's bits (ggml's x86 order), and the
// oracle's where every float step is exact; the gemm gives GemmQ8_0Avx512's.
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/dot_test_util.h"
#include "kernels/common/repacked_test_util.h"
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
  static constexpr auto Gemv = GemvQ8_0RepackedAvx512;
  static constexpr auto Gemm = GemmQ8_0RepackedAvx512;
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

// Shapes around the layout: 1 block, odd counts, whole and partial chunks of 8 blocks;
// rows around the group of 16; a row stride wider than the row.
TEST_F(Q8_0RepackedTest, SameBitsAsTheAvx512GemvAcrossShapes) {
  std::mt19937 rng(testing::kKernelSeed);
  for (size_t n_blocks : {1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 90}) {
    for (size_t rows : {1, 3, 15, 16, 17, 31, 32, 33, 50}) {
      const size_t row_stride = n_blocks + 1;
      const auto w = RandomWeights(rows * row_stride, rng);
      const auto x = testing::RandomActivations(n_blocks, rng);
      CompareGemv(w, row_stride, {rows, n_blocks}, x.data(), GemvQ8_0Avx512);
    }
  }
}

// Scales 1 on both sides and up to 64 blocks: every float step is exact, so the oracle's
// bits too.
TEST_F(Q8_0RepackedTest, OracleBitsOnExactInputs) {
  std::mt19937 rng(testing::kKernelSeed + 1);
  for (size_t n_blocks : {1, 5, 16, 17, 64}) {
    const auto w = testing::RandomQ8_0Blocks(9 * n_blocks, 0x3C00, rng);
    const auto x = testing::RandomQ8_0Blocks(n_blocks, 0x3C00, rng);
    CompareGemv(w, n_blocks, {9, n_blocks}, x.data(), GemvQ8_0Ref);
  }
}

// The gemm against GemmQ8_0Avx512 (the oracle's bits) on realistic inputs: whole and
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
        CompareGemm(w, {rows, n_blocks}, x.data(), x_stride, n_tokens, GemmQ8_0Avx512);
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
