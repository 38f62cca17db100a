// Each variant on repacked Q6_K gives its GGUF-layout twin's bits over shapes around the
// layout and on the largest integer sums: the AVX-512 gemv Q6KGemvAvx512's (ggml's x86
// order), the AVX2 one Q6KGemvAvx2's (the oracle's), and each gemm its twin gemm's.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/testing/repacked_test_util.h"
#include "kernels/testing/kquant_test_util.h"
#include "kernels/q6_k/q6_k.h"
#include "kernels/q6_k/q6_k_avx2.h"
#include "kernels/q6_k/q6_k_avx512.h"
#include "kernels/q6_k/q6_k_kernels.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "kernels/q6_k/q6_k_test_util.h"

namespace cpubrrr {
namespace {

struct Q6KRepacked {
  using Block = BlockQ6K;
  using Shape = Q6KRepackedShape;
  using Activation = BlockQ8K;
  using GemvFn = Q6KGemvFn;
  using GemmFn = Q6KGemmFn;
  static constexpr auto Repack = RepackQ6K;
};

struct Avx512Vnni : Q6KRepacked {
  static constexpr const char* kName = "repacked avx512_vnni";
  static constexpr uint32_t kRequired = kCpuAvx512 | kCpuAvx512Vnni;
  static constexpr auto Gemv = Q6KRepackedGemvAvx512;
  static constexpr auto Gemm = Q6KRepackedGemmAvx512;
  static constexpr auto TwinGemv = Q6KGemvAvx512;
  static constexpr auto TwinGemm = Q6KGemmAvx512;
};

struct Avx2 : Q6KRepacked {
  static constexpr const char* kName = "repacked avx2";
  static constexpr uint32_t kRequired = kCpuAvx2;
  static constexpr auto Gemv = Q6KRepackedGemvAvx2;
  static constexpr auto Gemm = Q6KRepackedGemmAvx2;
  static constexpr auto TwinGemv = Q6KGemvAvx2;
  static constexpr auto TwinGemm = Q6KGemmAvx2;
};

struct AvxVnni : Q6KRepacked {
  static constexpr const char* kName = "repacked avx_vnni";
  static constexpr uint32_t kRequired = kCpuAvx2 | kCpuAvxVnni;
  static constexpr auto Gemv = Q6KRepackedGemvAvxVnni;
  static constexpr auto Gemm = Q6KRepackedGemmAvxVnni;
  static constexpr auto TwinGemv = Q6KGemvAvxVnni;
  static constexpr auto TwinGemm = Q6KGemmAvxVnni;
};

template <class Variant>
class Q6KRepackedTest : public testing::RepackedKernelTest<Variant> {};

using Variants = ::testing::Types<Avx512Vnni, AvxVnni, Avx2>;
TYPED_TEST_SUITE(Q6KRepackedTest, Variants);

// The registry lists these variants, best first, each with its twin, and the pick's twin
// is the GGUF variant this CPU picks.
TEST(Q6KRepackedRegistry, ListsEachVariantWithItsTwin) {
  testing::CheckRepackedRegistry(AllQ6KRepackedVariants(), BestQ6KRepackedKernels(), AllQ6KVariants(),
                                 BestQ6KKernels(), {"avx512_vnni", "avx_vnni", "avx2"});
  EXPECT_EQ(AllQ6KRepackedVariants()[0].gemv, Avx512Vnni::Gemv);
  EXPECT_EQ(AllQ6KRepackedVariants()[1].gemv, AvxVnni::Gemv);
  EXPECT_EQ(AllQ6KRepackedVariants()[1].gemm, AvxVnni::Gemm);
  EXPECT_EQ(AllQ6KRepackedVariants()[2].gemm, Avx2::Gemm);
}

// Shapes around the layout: 1 superblock, partial, whole and two chunks of 8; rows around
// the group of 4; a row stride wider than the row.
TYPED_TEST(Q6KRepackedTest, SameBitsAsTheTwinGemvAcrossShapes) {
  std::mt19937 rng(testing::kKernelSeed);
  for (size_t n_blocks : {1, 2, 3, 7, 8, 9, 16, 17}) {
    for (size_t rows : {1, 3, 4, 5, 8, 13, 37}) {
      const size_t row_stride = n_blocks + 1;
      const auto w = testing::RandomQ6KWeights(rows * row_stride, rng);
      const auto x = testing::RandomActivations(1, n_blocks, n_blocks, rng);
      this->CompareGemv(w, row_stride, {rows, n_blocks}, x.data(), TypeParam::TwinGemv);
    }
  }
}

// Every quant 63 (all six bits set, so every top bit of A, B and C), every scale -128,
// activations all +127 or all -128: the largest sums, exact in float (d = 1).
TYPED_TEST(Q6KRepackedTest, ExtremeValuesGiveTheExactSum) {
  constexpr size_t kRows = 6, kBlocks = 3;
  BlockQ6K full{};
  full.d = 0x3C00;  // 1.0
  std::memset(full.ql, 0xFF, sizeof(full.ql));
  std::memset(full.qh, 0xFF, sizeof(full.qh));
  for (int8_t& s : full.scales) s = -128;
  const std::vector<BlockQ6K> w(kRows * kBlocks, full);
  for (int q : {127, -128}) {
    std::vector<BlockQ8K> x(kBlocks);
    for (BlockQ8K& xb : x) {
      xb.d = 1.0f;
      std::memset(xb.qs, static_cast<uint8_t>(q), sizeof(xb.qs));
      for (int16_t& s : xb.bsums) s = static_cast<int16_t>(16 * q);
    }
    this->CompareGemv(w, kBlocks, {kRows, kBlocks}, x.data(), TypeParam::TwinGemv);
    std::vector<float> y(kRows);
    const Q6KRepackedShape shape{kRows, kBlocks};
    TypeParam::Gemv(this->Repack(w, kBlocks, shape), shape, 0, shape.Groups(), x.data(), y.data());
    for (size_t r = 0; r < kRows; ++r) EXPECT_EQ(y[r], kBlocks * (16 * -128.0 * 16 * 31 * q)) << r;
  }
}

// The gemm against the twin's: whole and partial 32-row panels of the AVX-512 lane tile,
// starting groups past 0, strided tokens, token counts around the few-token path (below 4)
// and the lane tile's token tile of 6.
TYPED_TEST(Q6KRepackedTest, GemmGivesTheTwinGemmsBits) {
  std::mt19937 rng(testing::kKernelSeed + 2);
  for (size_t rows : {3, 13, 45, 300}) {
    for (size_t n_blocks : {1, 3, 9}) {
      const auto w = testing::RandomQ6KWeights(rows * n_blocks, rng);
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
