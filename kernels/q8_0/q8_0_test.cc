// Checks every Q8_0 variant against the scalar oracle: the activation quantizer byte for
// byte, the dots bit-exact where every float step is exact and else within the derived
// bound (dot_test_util.h).
#include "kernels/q8_0/q8_0.h"

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
#include "quant/fp16.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kKernelSeed;

// Weights: rows x row_stride blocks with random quants in -128..127 and scales from `d`.
template <typename ScaleFn>
std::vector<BlockQ8_0> RandomWeights(size_t rows, size_t row_stride, std::mt19937& rng,
                                     ScaleFn d) {
  std::uniform_int_distribution<int> q(-128, 127);
  std::vector<BlockQ8_0> w(rows * row_stride);
  for (BlockQ8_0& b : w) {
    b.d = d(rng);
    for (int8_t& v : b.qs) v = static_cast<int8_t>(q(rng));
  }
  return w;
}

// Returns sum_b |d_w d_x| sum_i |w_i x_i| for one row (the A of DotErrorBound) and,
// through min_unit, the smallest |d_w d_x|.
double AbsSum(const BlockQ8_0* w, const BlockQ8_0* x, size_t n_blocks, double* min_unit) {
  double a = 0.0;
  *min_unit = INFINITY;
  for (size_t b = 0; b < n_blocks; ++b) {
    const double d = double{Fp16ToFp32(w[b].d)} * Fp16ToFp32(x[b].d);
    int64_t s = 0;
    for (int i = 0; i < kQ8_0BlockSize; ++i) s += std::abs(w[b].qs[i] * x[b].qs[i]);
    a += std::fabs(d) * static_cast<double>(s);
    *min_unit = std::fmin(*min_unit, std::fabs(d));
  }
  return a;
}

// The format's pieces for testing::Block32VariantTest.
struct Q8_0Format {
  using Kernels = Q8_0Kernels;
  using Block = BlockQ8_0;
  static constexpr auto GemmRef = Q8_0GemmRef;
  static constexpr auto AbsSum = cpubrrr::AbsSum;
};

using Case = testing::DotCase;
using testing::Describe;

class Q8_0Test : public testing::Block32VariantTest<Q8_0Format> {
 protected:
  // Quantizes x with the variant and the oracle; expects identical bytes.
  void CompareQuantize(const std::vector<float>& x, const std::string& what) {
    const size_t n_blocks = x.size() / kQ8_0BlockSize;
    std::vector<BlockQ8_0> want(n_blocks + 1), got(n_blocks + 1);
    std::memset(want.data(), 0x5A, want.size() * sizeof(BlockQ8_0));
    std::memset(got.data(), 0x5A, got.size() * sizeof(BlockQ8_0));
    QuantizeQ8_0Ref(x.data(), want.data(), n_blocks);
    GetParam().quantize(x.data(), got.data(), n_blocks);
    EXPECT_EQ(testing::BytesDiff(got.data(), want.data(), got.size() * sizeof(BlockQ8_0),
                                 sizeof(BlockQ8_0)),
              "")
        << what << ", n_blocks " << n_blocks << ", seed " << kKernelSeed;
  }
};

TEST_P(Q8_0Test, QuantizesRandomRowsIdentically) {
  std::mt19937 rng(kKernelSeed);
  for (testing::Dist dist : testing::kAllDists) {
    for (size_t n_blocks : {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 90}) {
      CompareQuantize(testing::RandomFloats(dist, n_blocks * kQ8_0BlockSize, kQ8_0BlockSize, rng),
                      testing::DistName(dist));
    }
  }
}

TEST_P(Q8_0Test, QuantizesEdgeBlocksIdentically) {
  std::vector<float> x;
  auto add_block = [&](auto value_at) {
    for (int i = 0; i < kQ8_0BlockSize; ++i) x.push_back(value_at(i));
  };
  add_block([](int) { return 0.0f; });
  add_block([](int i) { return i == 5 ? -0.0f : 0.0f; });
  // amax 127 gives a scale of 1, so x.5 inputs sit exactly halfway: ties round to even.
  add_block([](int i) { return i == 0 ? 127.0f : (i - 16) + 0.5f; });
  add_block([](int i) { return i == 0 ? -127.0f : -(i - 16) - 0.5f; });
  // d = 65504 (largest finite fp16), then a d that overflows fp16 to infinity.
  add_block([](int i) { return (i % 2 ? 1.0f : -1.0f) * 65504.0f * 127.0f / (1 + i % 3); });
  add_block([](int i) { return i == 3 ? 3.0e38f : std::ldexp(1.0f, i * 3); });
  // Subnormal fp16 scales (2^-20, 2^-24), one that rounds to zero, the smallest allowed amax.
  add_block([](int i) { return std::ldexp(127.0f, -20) * (i - 16) / 16.0f; });
  add_block([](int i) { return std::ldexp(127.0f, -24) * (i - 16) / 16.0f; });
  add_block([](int i) { return std::ldexp(1.0f, -40) * (i - 16); });
  add_block([](int i) { return std::ldexp(1.0f, -100) * (i % 5 - 2); });
  // One element per block carries the max, at every position (catches lane-order bugs).
  for (int pos = 0; pos < kQ8_0BlockSize; ++pos) {
    add_block([pos](int i) { return i == pos ? -3.0f : 0.01f * (i - 16); });
  }
  CompareQuantize(x, "edge blocks");
}

// Power-of-two scales 1/2..1 keep every term a multiple of 2^-2; with 8 blocks the sum
// stays below 2^22 (8 * 32 * 128 * 127 < 2^22), so every float step is exact.
TEST_P(Q8_0Test, BitExactOnExactInputsAcrossShapes) {
  std::mt19937 rng(kKernelSeed);
  std::uniform_int_distribution<int> dk(-1, 0);
  auto pow2 = [&](std::mt19937& g) { return testing::Fp16PowerOfTwo(dk(g)); };
  // Row counts around the tiles (4 for the gemv; 16 or 32 rows x 6 tokens for the AVX-512 gemm); odd row
  // counts get a padded row stride.
  for (size_t n_blocks : {1, 2, 3, 4, 5, 7, 8}) {
    for (size_t rows : {1, 3, 4, 5, 9, 13, 16, 17, 31, 33}) {
      for (size_t n_tokens : {1, 4, 5, 6, 7, 17}) {
        const Case c{rows, n_blocks + (rows % 2 ? 3 : 0), n_blocks, n_tokens};
        const auto w = RandomWeights(rows, c.row_stride, rng, pow2);
        const size_t x_stride = n_blocks + 1;
        std::vector<BlockQ8_0> x(n_tokens * x_stride);
        for (auto& b : x) b = testing::RandomQ8_0Blocks(1, pow2(rng), rng)[0];
        Compare(c, w, x, x_stride, /*exact=*/true);
      }
    }
  }
}

// Longer rows: small quants (|w| <= 3) keep 64 blocks exact (64 * 32 * 3 * 127 < 2^20).
TEST_P(Q8_0Test, BitExactOnLongExactRows) {
  std::mt19937 rng(kKernelSeed + 5);
  for (size_t n_blocks : {9, 15, 16, 17, 33, 64}) {
    const Case c{7, n_blocks, n_blocks, 5};
    auto w = RandomWeights(c.rows, c.row_stride, rng, [](std::mt19937&) { return uint16_t{0x3C00}; });
    for (auto& b : w) {
      for (int8_t& v : b.qs) v = static_cast<int8_t>(v % 4);
    }
    const auto x = testing::RandomQ8_0Blocks(c.n_tokens * n_blocks, 0x3800, rng);
    Compare(c, w, x, n_blocks, /*exact=*/true);
  }
}

TEST_P(Q8_0Test, EveryTokenCountUpTo17) {
  std::mt19937 rng(kKernelSeed + 1);
  auto one = [](std::mt19937&) { return uint16_t{0x3C00}; };
  for (size_t n_tokens = 1; n_tokens <= 17; ++n_tokens) {
    const Case c{11, 6, 5, n_tokens};
    const auto w = RandomWeights(c.rows, c.row_stride, rng, one);
    const auto x = testing::RandomQ8_0Blocks(n_tokens * c.n_blocks, 0x3800, rng);
    Compare(c, w, x, c.n_blocks, /*exact=*/true);
  }
}

// Realistic: gpt-oss width (90 blocks), weights with random finite fp16 scales in
// 2^-14..2^1, activations from the quantizer applied to normal floats.
TEST_P(Q8_0Test, WithinBoundOnRealisticInputs) {
  std::mt19937 rng(kKernelSeed + 2);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> pow2(-6, 6);
  std::uniform_int_distribution<int> dbits(0x0400, 0x4000);
  auto d = [&](std::mt19937& g) { return static_cast<uint16_t>(dbits(g) | (g() & 0x8000)); };
  for (size_t n_tokens : {1, 7, 16}) {
    const Case c{37, 90, 90, n_tokens};
    const auto w = RandomWeights(c.rows, c.row_stride, rng, d);
    std::vector<float> xf(n_tokens * c.n_blocks * kQ8_0BlockSize);
    for (size_t i = 0; i < xf.size(); i += kQ8_0BlockSize) {
      const float s = std::ldexp(1.0f, pow2(rng));
      for (size_t j = i; j < i + kQ8_0BlockSize; ++j) xf[j] = normal(rng) * s;
    }
    std::vector<BlockQ8_0> x(n_tokens * c.n_blocks);
    QuantizeRowQ8_0(xf.data(), x.data(), static_cast<int64_t>(xf.size()));
    Compare(c, w, x, c.n_blocks, /*exact=*/false);
  }
}

TEST_P(Q8_0Test, AllZeroBlocksAndSubnormalScales) {
  std::mt19937 rng(kKernelSeed + 3);
  const Case c{9, 17, 17, 5};
  // Scales 0, the smallest subnormal, the largest subnormal and the largest finite fp16.
  const uint16_t kScales[] = {0x0000, 0x0001, 0x03FF, 0x7BFF, 0x8001};
  size_t n = 0;
  auto w = RandomWeights(c.rows, c.row_stride, rng, [&](std::mt19937&) { return kScales[n++ % 5]; });
  for (size_t i = 0; i < w.size(); i += 3) std::memset(w[i].qs, 0, kQ8_0BlockSize);
  auto x = testing::RandomQ8_0Blocks(c.n_tokens * c.n_blocks, 0x0400, rng);
  for (size_t i = 0; i < x.size(); i += 4) std::memset(x[i].qs, 0, kQ8_0BlockSize);
  Compare(c, w, x, c.n_blocks, /*exact=*/false);
}

INSTANTIATE_TEST_SUITE_P(Variants, Q8_0Test, ::testing::ValuesIn(AllQ8_0Variants()),
                         [](const auto& info) { return std::string(info.param.name); });

// The SME variant is the best exactly where the CPU has SME; under qemu
// (CPUBRRR_EXPECT_SME) it must have it.
TEST(Q8_0Registry, SmeIsBestExactlyWhereTheCpuHasIt) {
  const bool has_sme = HasFeatures(DetectCpuFeatures(), kCpuSme);
  if (std::getenv("CPUBRRR_EXPECT_SME") != nullptr) {
    ASSERT_TRUE(has_sme) << "no SME under qemu";
  }
  EXPECT_EQ(std::string(BestQ8_0Kernels().name) == "sme", has_sme) << BestQ8_0Kernels().name;
}

TEST(Q8_0Registry, RefIsLastAndBestIsSupported) {
  const auto all = AllQ8_0Variants();
  ASSERT_FALSE(all.empty());
  EXPECT_STREQ(all.back().name, "ref");
  EXPECT_TRUE(HasFeatures(DetectCpuFeatures(), BestQ8_0Kernels().required));
}

}  // namespace
}  // namespace cpubrrr
