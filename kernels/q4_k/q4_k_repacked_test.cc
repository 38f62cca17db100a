// Each variant on repacked Q4_K gives its GGUF-layout twin's bits over shapes around the
// layout and on the largest integer sums: the AVX-512 gemv Q4KGemvAvx512's (ggml's x86
// order), the AVX2 one Q4KGemvAvx2's (the oracle's), and each gemm its twin gemm's.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/testing/repacked_test_util.h"
#include "kernels/testing/kquant_test_util.h"
#include "kernels/q4_k/q4_k.h"
#include "kernels/q4_k/q4_k_avx2.h"
#include "kernels/q4_k/q4_k_avx512.h"
#include "kernels/q4_k/q4_k_kernels.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "kernels/q4_k/q4_k_test_util.h"

namespace cpubrrr {
namespace {

struct Q4KRepacked {
  using Block = BlockQ4K;
  using Shape = Q4KRepackedShape;
  using Activation = BlockQ8K;
  using GemvFn = Q4KGemvFn;
  using GemmFn = Q4KGemmFn;
  static constexpr auto Repack = RepackQ4K;
};

struct Avx512Vnni : Q4KRepacked {
  static constexpr const char* kName = "repacked avx512_vnni";
  static constexpr uint32_t kRequired = kCpuAvx512 | kCpuAvx512Vnni;
  static constexpr auto Gemv = Q4KRepackedGemvAvx512;
  static constexpr auto Gemm = Q4KRepackedGemmAvx512;
  static constexpr auto TwinGemv = Q4KGemvAvx512;
  static constexpr auto TwinGemm = Q4KGemmAvx512;
};

struct Avx2 : Q4KRepacked {
  static constexpr const char* kName = "repacked avx2";
  static constexpr uint32_t kRequired = kCpuAvx2;
  static constexpr auto Gemv = Q4KRepackedGemvAvx2;
  static constexpr auto Gemm = Q4KRepackedGemmAvx2;
  static constexpr auto TwinGemv = Q4KGemvAvx2;
  static constexpr auto TwinGemm = Q4KGemmAvx2;
};

struct AvxVnni : Q4KRepacked {
  static constexpr const char* kName = "repacked avx_vnni";
  static constexpr uint32_t kRequired = kCpuAvx2 | kCpuAvxVnni;
  static constexpr auto Gemv = Q4KRepackedGemvAvxVnni;
  static constexpr auto Gemm = Q4KRepackedGemmAvxVnni;
  static constexpr auto TwinGemv = Q4KGemvAvx2;
  static constexpr auto TwinGemm = Q4KGemmAvxVnni;
};

template <class Variant>
class Q4KRepackedTest : public testing::RepackedKernelTest<Variant> {};

using Variants = ::testing::Types<Avx512Vnni, AvxVnni, Avx2>;
TYPED_TEST_SUITE(Q4KRepackedTest, Variants);

// The registry lists these variants, best first, each with its twin, and the pick's twin
// is the GGUF variant this CPU picks.
TEST(Q4KRepackedRegistry, ListsEachVariantWithItsTwin) {
  testing::CheckRepackedRegistry(AllQ4KRepackedVariants(), BestQ4KRepackedKernels(), AllQ4KVariants(),
                                 BestQ4KKernels(), {"avx512_vnni", "avx_vnni", "avx2"});
  EXPECT_EQ(AllQ4KRepackedVariants()[0].gemv, Avx512Vnni::Gemv);
  EXPECT_EQ(AllQ4KRepackedVariants()[1].gemv, AvxVnni::Gemv);
  EXPECT_EQ(AllQ4KRepackedVariants()[1].gemm, AvxVnni::Gemm);
  EXPECT_EQ(AllQ4KRepackedVariants()[2].gemm, Avx2::Gemm);
}

// Shapes around the layout: 1 superblock up to 17 (rows of at most 4 finish with vector
// sums, longer ones per row); rows around the group of 4; a row stride wider than the row.
TYPED_TEST(Q4KRepackedTest, SameBitsAsTheTwinGemvAcrossShapes) {
  std::mt19937 rng(testing::kKernelSeed);
  for (size_t n_blocks : {1, 2, 3, 4, 5, 8, 9, 17}) {
    for (size_t rows : {1, 3, 4, 5, 8, 13, 37}) {
      const size_t row_stride = n_blocks + 1;
      const auto w = testing::RandomQ4KWeights(rows * row_stride, rng);
      const auto x = testing::RandomActivations(1, n_blocks, n_blocks, rng);
      this->CompareGemv(w, row_stride, {rows, n_blocks}, x.data(), TypeParam::TwinGemv);
    }
  }
}

// Every scale and min 63, every nibble 15, activations all +127 or all -128: the largest
// sums, exact in float (d = 1, dmin = 0.5).
TYPED_TEST(Q4KRepackedTest, ExtremeValuesGiveTheExactSum) {
  constexpr size_t kRows = 9, kBlocks = 3;
  const std::vector<BlockQ4K> w(kRows * kBlocks, testing::FullQ4KBlock());
  for (int q : {127, -128}) {
    std::vector<BlockQ8K> x(kBlocks);
    for (BlockQ8K& xb : x) {
      xb.d = 1.0f;
      std::memset(xb.qs, static_cast<uint8_t>(q), sizeof(xb.qs));
      for (int16_t& s : xb.bsums) s = static_cast<int16_t>(16 * q);
    }
    this->CompareGemv(w, kBlocks, {kRows, kBlocks}, x.data(), TypeParam::TwinGemv);
    std::vector<float> y(kRows);
    const Q4KRepackedShape shape{kRows, kBlocks};
    TypeParam::Gemv(this->Repack(w, kBlocks, shape), shape, 0, shape.Groups(), x.data(), y.data());
    const double per_block = 8 * 63 * 32 * (15.0 * q) - 0.5 * 8 * 63 * 32 * q;
    for (size_t r = 0; r < kRows; ++r) EXPECT_EQ(y[r], kBlocks * per_block) << r;
  }
}

// The gemm against the twin's: whole and partial 32-row panels of the AVX-512 lane tile,
// starting groups past 0, strided tokens, token counts around the few-token tile (below 4)
// and the lane tile's token tile of 6; rows of up to 4 blocks and longer.
TYPED_TEST(Q4KRepackedTest, GemmGivesTheTwinGemmsBits) {
  std::mt19937 rng(testing::kKernelSeed + 2);
  for (size_t rows : {3, 13, 45, 300}) {
    for (size_t n_blocks : {1, 3, 5, 9}) {
      const auto w = testing::RandomQ4KWeights(rows * n_blocks, rng);
      for (size_t n_tokens : {1, 2, 3, 4, 5, 7, 17}) {
        const size_t x_stride = n_blocks + 1;
        const auto x = testing::RandomActivations(n_tokens, x_stride, n_blocks, rng);
        this->CompareGemm(w, {rows, n_blocks}, x.data(), x_stride, n_tokens, TypeParam::TwinGemm);
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
