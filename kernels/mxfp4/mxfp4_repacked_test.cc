// Each variant on repacked MXFP4 gives its GGUF-layout twin's bits: the AVX-512 gemv
// Mxfp4GemvAvx512's (ggml's x86 order) and its gemm Mxfp4GemmAvx512's (the oracle's), the
// AVX2 gemv and gemm Mxfp4GemvAvx2's (ggml's AVX2 order), the AVX-VNNI gemm
// Mxfp4GemmAvxVnni's; and the oracle's bits where every float step is exact.
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/testing/repacked_test_util.h"
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
};

struct Avx512Vnni : Mxfp4Repacked {
  static constexpr const char* kName = "repacked avx512_vnni";
  static constexpr uint32_t kRequired = kCpuAvx512 | kCpuAvx512Vnni;
  static constexpr auto Gemv = Mxfp4RepackedGemvAvx512;
  static constexpr auto Gemm = Mxfp4RepackedGemmAvx512;
  static constexpr auto TwinGemv = Mxfp4GemvAvx512;
  static constexpr auto TwinGemm = Mxfp4GemmAvx512;
};

struct Avx2 : Mxfp4Repacked {
  static constexpr const char* kName = "repacked avx2";
  static constexpr uint32_t kRequired = kCpuAvx2;
  static constexpr auto Gemv = Mxfp4RepackedGemvAvx2;
  static constexpr auto Gemm = Mxfp4RepackedGemmAvx2;
  static constexpr auto TwinGemv = Mxfp4GemvAvx2;
  static constexpr auto TwinGemm = Mxfp4GemmAvx2;
};

struct AvxVnni : Mxfp4Repacked {
  static constexpr const char* kName = "repacked avx_vnni";
  static constexpr uint32_t kRequired = kCpuAvx2 | kCpuAvxVnni;
  static constexpr auto Gemv = Mxfp4RepackedGemvAvxVnni;
  static constexpr auto Gemm = Mxfp4RepackedGemmAvxVnni;
  static constexpr auto TwinGemv = Mxfp4GemvAvx2;
  static constexpr auto TwinGemm = Mxfp4GemmAvxVnni;
};

template <class Variant>
class Mxfp4RepackedTest : public testing::RepackedKernelTest<Variant> {};

using Variants = ::testing::Types<Avx512Vnni, AvxVnni, Avx2>;
TYPED_TEST_SUITE(Mxfp4RepackedTest, Variants);

// The registry lists these variants, best first, each with its twin, and the pick's twin
// is the GGUF variant this CPU picks.
TEST(Mxfp4RepackedRegistry, ListsEachVariantWithItsTwin) {
  testing::CheckRepackedRegistry(AllMxfp4RepackedVariants(), BestMxfp4RepackedKernels(), AllMxfp4Variants(),
                                 BestMxfp4Kernels(), {"avx512_vnni", "avx_vnni", "avx2"});
  EXPECT_EQ(AllMxfp4RepackedVariants()[0].gemv, Avx512Vnni::Gemv);
  EXPECT_EQ(AllMxfp4RepackedVariants()[1].gemv, AvxVnni::Gemv);
  EXPECT_EQ(AllMxfp4RepackedVariants()[1].gemm, AvxVnni::Gemm);
  EXPECT_EQ(AllMxfp4RepackedVariants()[2].gemm, Avx2::Gemm);
}

// Shapes around the layout: 1 block, odd counts (a lone last block), whole and partial
// chunks of 8 pairs; rows around the group of 4; a row stride wider than the row.
TYPED_TEST(Mxfp4RepackedTest, SameBitsAsTheTwinGemvAcrossShapes) {
  std::mt19937 rng(testing::kKernelSeed);
  for (size_t n_blocks : {1, 2, 3, 4, 15, 16, 17, 18, 31, 32, 33, 90}) {
    for (size_t rows : {1, 3, 4, 5, 8, 13, 37}) {
      const size_t row_stride = n_blocks + 1;
      const auto w = testing::RandomMxfp4Blocks(rows * row_stride, 100, 140, rng);
      const auto x = testing::RandomActivations(n_blocks, rng);
      this->CompareGemv(w, row_stride, {rows, n_blocks}, x.data(), TypeParam::TwinGemv);
    }
  }
}

// Every exponent, against activation scales of every magnitude: the scale product
// 2^(e-128) d_x rounds (subnormal results) exactly as ggml's multiplication does.
TYPED_TEST(Mxfp4RepackedTest, SameBitsAsTheTwinGemvOverEveryExponent) {
  std::mt19937 rng(testing::kKernelSeed + 1);
  for (int e = 0; e < 256; ++e) {
    const auto w = testing::RandomMxfp4Blocks(6 * 18, e, e, rng);
    const auto x = testing::RandomActivations(18, rng);
    SCOPED_TRACE("e = " + std::to_string(e));
    this->CompareGemv(w, 18, {6, 18}, x.data(), TypeParam::TwinGemv);
  }
}

// Exponents 127..128 and activation scale 1: every float step is exact, so the oracle's
// bits too.
TYPED_TEST(Mxfp4RepackedTest, OracleBitsOnExactInputs) {
  std::mt19937 rng(testing::kKernelSeed + 2);
  for (size_t n_blocks : {1, 5, 16, 17, 64}) {
    const auto w = testing::RandomMxfp4Blocks(9 * n_blocks, 127, 128, rng);
    const auto x = testing::RandomQ8_0Blocks(n_blocks, 0x3C00, rng);
    this->CompareGemv(w, n_blocks, {9, n_blocks}, x.data(), Mxfp4GemvRef);
  }
}

// The gemm against the twin's on realistic inputs: slices of 64
// groups and a partial one (rows > 256), starting groups past 0, strided tokens and rows.
TYPED_TEST(Mxfp4RepackedTest, GemmGivesTheTwinGemmsBits) {
  std::mt19937 rng(testing::kKernelSeed + 3);
  for (size_t rows : {3, 13, 300}) {
    for (size_t n_blocks : {1, 17, 90}) {
      const auto w = testing::RandomMxfp4Blocks(rows * n_blocks, 100, 140, rng);
      for (size_t n_tokens : {1, 2, 3, 4, 5, 17}) {
        const size_t x_stride = n_blocks + 1;
        const auto x = testing::RandomActivations(n_tokens * x_stride, rng);
        this->CompareGemm(w, {rows, n_blocks}, x.data(), x_stride, n_tokens, TypeParam::TwinGemm);
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
