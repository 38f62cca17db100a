// Checks Q8_K quants, block sums and round-trip error by hand; no llama.cpp.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

TEST(Q8K, EncodesHandComputedBlock) {
  // max = -127 makes the scale -127/max = 1 and d = 1; ties round to even.
  std::vector<float> x(kQ8KBlockSize, 0.0f);
  x[0] = -127.0f;
  x[1] = 2.5f;
  x[2] = -3.5f;
  x[17] = 100.4f;
  BlockQ8K b;
  QuantizeRowQ8K(x.data(), &b, kQ8KBlockSize);
  EXPECT_EQ(b.d, 1.0f);
  EXPECT_EQ(b.qs[0], -127);
  EXPECT_EQ(b.qs[1], 2);
  EXPECT_EQ(b.qs[2], -4);
  EXPECT_EQ(b.qs[17], 100);
  EXPECT_EQ(b.bsums[0], -127 + 2 - 4);
  EXPECT_EQ(b.bsums[1], 100);
  for (int k = 2; k < 16; ++k) EXPECT_EQ(b.bsums[k], 0);
}

TEST(Q8K, EncodesZeroBlockAsAllZeroBytes) {
  std::vector<float> x(kQ8KBlockSize, 0.0f);
  BlockQ8K b;
  std::memset(&b, 0xAA, sizeof(b));
  QuantizeRowQ8K(x.data(), &b, kQ8KBlockSize);
  const BlockQ8K zero{};
  EXPECT_EQ(std::memcmp(&b, &zero, sizeof(b)), 0);
}

TEST(Q8K, RoundTripIsWithinHalfStepAndBlockSumsAdd) {
  // q = round(x * s) with s = -127/max and d = 1/s: |x - d*q| <= |d|/2 up to the
  // rounding of s, d and the products (a few float ulps relative to |d|).
  std::mt19937 rng(testing::kSeed);
  constexpr int kBlocks = 1000;
  const auto x = testing::RandomFloats(testing::Dist::kOutliers, kBlocks * kQ8KBlockSize,
                                       kQ8KBlockSize, rng);
  std::vector<BlockQ8K> blocks(kBlocks);
  std::vector<float> y(x.size());
  QuantizeRowQ8K(x.data(), blocks.data(), x.size());
  DequantizeRowQ8K(blocks.data(), y.data(), x.size());
  for (int b = 0; b < kBlocks; ++b) {
    const float bound = std::fabs(blocks[b].d) * 0.5001f;
    for (int i = 0; i < kQ8KBlockSize; ++i) {
      ASSERT_LE(std::fabs(x[b * 256 + i] - y[b * 256 + i]), bound)
          << "seed " << testing::kSeed << " block " << b << " element " << i;
    }
    for (int k = 0; k < 16; ++k) {
      int sum = 0;
      for (int i = 0; i < 16; ++i) sum += blocks[b].qs[16 * k + i];
      ASSERT_EQ(blocks[b].bsums[k], sum);
    }
  }
}

}  // namespace
}  // namespace cpubrrr
