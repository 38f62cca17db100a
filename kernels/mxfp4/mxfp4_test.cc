// Checks every MXFP4 x Q8_0 variant against the scalar oracle: bit-exact where every
// float step is exact, within the derived bound (dot_test_util.h) on realistic inputs.
#include "kernels/mxfp4/mxfp4.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "kernels/testing/block32_test_util.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/mxfp4/mxfp4_test_util.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

using testing::kKernelSeed;

// Returns sum_b |2^(e-128) d_x| sum_i |w_i x_i| for one row: the A of DotErrorBound,
// and, through min_unit, the smallest power of two dividing every block term.
double AbsSum(const BlockMxfp4* w, const BlockQ8_0* x, size_t n_blocks, double* min_unit) {
  double a = 0.0;
  *min_unit = INFINITY;
  for (size_t b = 0; b < n_blocks; ++b) {
    const double d = std::ldexp(1.0, w[b].e - 128) * Fp16ToFp32(x[b].d);
    int64_t s = 0;
    for (int j = 0; j < 16; ++j) {
      s += std::abs(kMxfp4DoubledValues[w[b].qs[j] & 15] * x[b].qs[j]);
      s += std::abs(kMxfp4DoubledValues[w[b].qs[j] >> 4] * x[b].qs[j + 16]);
    }
    a += std::fabs(d) * static_cast<double>(s);
    *min_unit = std::fmin(*min_unit, std::fabs(d));
  }
  return a;
}

// The format's pieces for testing::Block32VariantTest.
struct Mxfp4Format {
  using Kernels = Mxfp4Kernels;
  using Block = BlockMxfp4;
  static constexpr auto GemmRef = Mxfp4GemmRef;
  static constexpr auto AbsSum = cpubrrr::AbsSum;
};

using Case = testing::DotCase;
using testing::Describe;

class Mxfp4Test : public testing::Block32VariantTest<Mxfp4Format> {};

// Exponents 127..128 and activation scales 1/2..1 keep every block term a multiple of
// 2^-2 below 2^16, so up to 64 blocks every float step is exact.
TEST_P(Mxfp4Test, BitExactOnExactInputsAcrossShapes) {
  std::mt19937 rng(kKernelSeed);
  std::uniform_int_distribution<int> dk(-1, 0);
  // Row counts around the tiles (4 for the gemv; 16 or 32 rows x 6 tokens for the AVX-512 gemm); odd row
  // counts get a padded row stride.
  for (size_t n_blocks : {1, 2, 3, 4, 5, 8, 9, 16, 17, 64}) {
    for (size_t rows : {1, 3, 4, 5, 9, 13, 16, 17, 31, 33}) {
      for (size_t n_tokens : {1, 4, 5, 6, 7, 17}) {
        const Case c{rows, n_blocks + (rows % 2 ? 3 : 0), n_blocks, n_tokens};
        const auto w = testing::RandomMxfp4Blocks(rows * c.row_stride, 127, 128, rng);
        const size_t x_stride = n_blocks + 1;
        std::vector<BlockQ8_0> x(n_tokens * x_stride);
        for (auto& b : x) b = testing::RandomQ8_0Blocks(1, testing::Fp16PowerOfTwo(dk(rng)), rng)[0];
        Compare(c, w, x, x_stride, /*exact=*/true);
      }
    }
  }
}

TEST_P(Mxfp4Test, EveryTokenCountUpTo17) {
  std::mt19937 rng(kKernelSeed + 1);
  for (size_t n_tokens = 1; n_tokens <= 17; ++n_tokens) {
    const Case c{11, 10, 10, n_tokens};
    const auto w = testing::RandomMxfp4Blocks(c.rows * c.row_stride, 127, 128, rng);
    const auto x = testing::RandomQ8_0Blocks(n_tokens * c.n_blocks, 0x3C00, rng);
    Compare(c, w, x, c.n_blocks, /*exact=*/true);
  }
}

// Realistic: gpt-oss width (90 blocks), exponents over a wide range, activations from
// the quantizer applied to normal floats with per-block scales.
TEST_P(Mxfp4Test, WithinBoundOnRealisticInputs) {
  std::mt19937 rng(kKernelSeed + 2);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> pow2(-6, 6);
  for (size_t n_tokens : {1, 2, 3, 4, 7, 16}) {
    const Case c{37, 90, 90, n_tokens};
    const auto w = testing::RandomMxfp4Blocks(c.rows * c.row_stride, 100, 140, rng);
    std::vector<float> xf(n_tokens * c.n_blocks * 32);
    for (size_t i = 0; i < xf.size(); i += 32) {
      const float s = std::ldexp(1.0f, pow2(rng));
      for (size_t j = i; j < i + 32; ++j) xf[j] = normal(rng) * s;
    }
    std::vector<BlockQ8_0> x(n_tokens * c.n_blocks);
    QuantizeRowQ8_0(xf.data(), x.data(), static_cast<int64_t>(xf.size()));
    Compare(c, w, x, c.n_blocks, /*exact=*/false);
  }
}

TEST_P(Mxfp4Test, AllZeroBlocksGiveZero) {
  std::mt19937 rng(kKernelSeed + 3);
  const Case c{9, 17, 17, 5};
  auto w = testing::RandomMxfp4Blocks(c.rows * c.row_stride, 0, 255, rng);
  for (size_t i = 0; i < w.size(); ++i) {
    // Codes 0 and 8 are +0 and -0; mix them, and zero every other block only in row 0.
    if (i >= c.row_stride || i % 2 == 0) std::memset(w[i].qs, i % 3 ? 0x00 : 0x88, 16);
  }
  auto x = testing::RandomQ8_0Blocks(c.n_tokens * c.n_blocks, 0xBC00, rng);
  for (size_t i = 0; i < x.size(); i += 4) std::memset(x[i].qs, 0, 32);
  Compare(c, w, x, c.n_blocks, /*exact=*/false);
}

// Every exponent 0..255: one exponent per row, activation scale 1 below e = 128 and
// 2^-14 from there (so the largest result, 2^113 * 2^22, stays finite); terms are
// multiples of 2^(e-128) * d_x >= 2^-128, so every step stays exact.
TEST_P(Mxfp4Test, BitExactOverEveryExponent) {
  std::mt19937 rng(kKernelSeed + 4);
  const Case c{5, 9, 9, 2};
  for (int e = 0; e < 256; ++e) {
    auto w = testing::RandomMxfp4Blocks(c.rows * c.row_stride, e, e, rng);
    const uint16_t d = e < 128 ? 0x3C00 : testing::Fp16PowerOfTwo(-14);
    const auto x = testing::RandomQ8_0Blocks(c.n_tokens * c.n_blocks, d, rng);
    SCOPED_TRACE("e = " + std::to_string(e));
    Compare(c, w, x, c.n_blocks, /*exact=*/true);
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, Mxfp4Test, ::testing::ValuesIn(AllMxfp4Variants()),
                         [](const auto& info) { return std::string(info.param.name); });

// The SME variant is the best exactly where the CPU has SME; under qemu
// (CPUBRRR_EXPECT_SME) it must have it.
TEST(Mxfp4Registry, SmeIsBestExactlyWhereTheCpuHasIt) {
  const bool has_sme = HasFeatures(DetectCpuFeatures(), kCpuSme);
  if (std::getenv("CPUBRRR_EXPECT_SME") != nullptr) {
    ASSERT_TRUE(has_sme) << "no SME under qemu";
  }
  EXPECT_EQ(std::string(BestMxfp4Kernels().name) == "sme", has_sme) << BestMxfp4Kernels().name;
}

TEST(Mxfp4Registry, RefIsLastAndBestIsSupported) {
  const auto all = AllMxfp4Variants();
  ASSERT_FALSE(all.empty());
  EXPECT_STREQ(all.back().name, "ref");
  EXPECT_TRUE(HasFeatures(DetectCpuFeatures(), BestMxfp4Kernels().required));
}

}  // namespace
}  // namespace cpubrrr
