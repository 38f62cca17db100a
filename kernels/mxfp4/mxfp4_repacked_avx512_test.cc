// The AVX-512 gemv on repacked MXFP4 gives GemvMxfp4Avx512's bits (ggml's x86 order), and
// the oracle's where every float step is exact; the gemm gives GemmMxfp4Avx512's.
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/dot_test_util.h"
#include "kernels/common/repacked_test_util.h"
#include "kernels/mxfp4/mxfp4.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "kernels/mxfp4/mxfp4_test_util.h"

namespace cpubrrr {
namespace {

struct Mxfp4Repacked {
  using Block = BlockMxfp4;
  using Shape = Mxfp4RepackedShape;
  using Activation = BlockQ8_0;
  using GemvFn = Mxfp4GemvFn;
  using GemmFn = Mxfp4GemmFn;
  static constexpr auto Repack = RepackMxfp4;
  static constexpr auto Gemv = GemvMxfp4RepackedAvx512;
  static constexpr auto Gemm = GemmMxfp4RepackedAvx512;
};

class Mxfp4RepackedTest : public testing::RepackedKernelTest<Mxfp4Repacked> {};

// Shapes around the layout: 1 block, odd counts (a lone last block), whole and partial
// chunks of 8 pairs; rows around the group of 4; a row stride wider than the row.
TEST_F(Mxfp4RepackedTest, SameBitsAsTheAvx512GemvAcrossShapes) {
  std::mt19937 rng(testing::kKernelSeed);
  for (size_t n_blocks : {1, 2, 3, 4, 15, 16, 17, 18, 31, 32, 33, 90}) {
    for (size_t rows : {1, 3, 4, 5, 8, 13, 37}) {
      const size_t row_stride = n_blocks + 1;
      const auto w = testing::RandomMxfp4Blocks(rows * row_stride, 100, 140, rng);
      const auto x = testing::RandomActivations(n_blocks, rng);
      CompareGemv(w, row_stride, {rows, n_blocks}, x.data(), GemvMxfp4Avx512);
    }
  }
}

// Every exponent, against activation scales of every magnitude: the scale product
// 2^(e-128) d_x rounds (subnormal results) exactly as ggml's multiplication does.
TEST_F(Mxfp4RepackedTest, SameBitsAsTheAvx512GemvOverEveryExponent) {
  std::mt19937 rng(testing::kKernelSeed + 1);
  for (int e = 0; e < 256; ++e) {
    const auto w = testing::RandomMxfp4Blocks(6 * 18, e, e, rng);
    const auto x = testing::RandomActivations(18, rng);
    SCOPED_TRACE("e = " + std::to_string(e));
    CompareGemv(w, 18, {6, 18}, x.data(), GemvMxfp4Avx512);
  }
}

// Exponents 127..128 and activation scale 1: every float step is exact, so the oracle's
// bits too.
TEST_F(Mxfp4RepackedTest, OracleBitsOnExactInputs) {
  std::mt19937 rng(testing::kKernelSeed + 2);
  for (size_t n_blocks : {1, 5, 16, 17, 64}) {
    const auto w = testing::RandomMxfp4Blocks(9 * n_blocks, 127, 128, rng);
    const auto x = testing::RandomQ8_0Blocks(n_blocks, 0x3C00, rng);
    CompareGemv(w, n_blocks, {9, n_blocks}, x.data(), GemvMxfp4Ref);
  }
}

// The gemm against GemmMxfp4Avx512 (the oracle's bits) on realistic inputs: slices of 64
// groups and a partial one (rows > 256), starting groups past 0, strided tokens and rows.
TEST_F(Mxfp4RepackedTest, GemmGivesTheLaneTileGemmsBits) {
  std::mt19937 rng(testing::kKernelSeed + 3);
  for (size_t rows : {3, 13, 300}) {
    for (size_t n_blocks : {1, 17, 90}) {
      const auto w = testing::RandomMxfp4Blocks(rows * n_blocks, 100, 140, rng);
      for (size_t n_tokens : {1, 5, 17}) {
        const size_t x_stride = n_blocks + 1;
        const auto x = testing::RandomActivations(n_tokens * x_stride, rng);
        CompareGemm(w, {rows, n_blocks}, x.data(), x_stride, n_tokens, GemmMxfp4Avx512);
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
