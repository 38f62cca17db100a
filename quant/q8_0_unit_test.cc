// Checks Q8_0 against hand-computed blocks and a derived round-trip error bound; no llama.cpp.
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "quant/fp16.h"
#include "quant/q8_0.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

TEST(Q8_0, EncodesHandComputedBlock) {
  // amax 127 gives d = 1: quants are the inputs rounded half away from zero.
  float x[kQ8_0BlockSize] = {127.0f, -63.5f, 0.5f, -0.5f, 2.5f, 1.49f};
  BlockQ8_0 b;
  QuantizeRowQ8_0(x, &b, kQ8_0BlockSize);
  EXPECT_EQ(b.d, 0x3C00);
  const int expected[] = {127, -64, 1, -1, 3, 1};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(b.qs[i], expected[i]) << i;
  for (int i = 6; i < kQ8_0BlockSize; ++i) EXPECT_EQ(b.qs[i], 0) << i;
}

TEST(Q8_0, DecodesHandComputedBlock) {
  BlockQ8_0 b{};
  b.d = 0x3800;  // 0.5
  b.qs[0] = 127;
  b.qs[1] = -128;
  b.qs[31] = 3;
  float y[kQ8_0BlockSize];
  DequantizeRowQ8_0(&b, y, kQ8_0BlockSize);
  EXPECT_EQ(y[0], 63.5f);
  EXPECT_EQ(y[1], -64.0f);
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_EQ(y[31], 1.5f);
}

TEST(Q8_0, RoundTripErrorIsWithinHalfStepPlusScaleRounding) {
  // With d = amax/127: |x - q*d| <= d/2 before storing d; storing d as fp16 (relative
  // error <= 2^-11 for normal d) adds at most |q| * d * 2^-11 <= 127 * d * 2^-11.
  std::mt19937 rng(testing::kSeed);
  constexpr int kBlocks = 2000;
  const auto x = testing::RandomFloats(testing::Dist::kNormal, kBlocks * kQ8_0BlockSize,
                                       kQ8_0BlockSize, rng);
  std::vector<BlockQ8_0> blocks(kBlocks);
  std::vector<float> y(x.size());
  QuantizeRowQ8_0(x.data(), blocks.data(), x.size());
  DequantizeRowQ8_0(blocks.data(), y.data(), x.size());
  for (int b = 0; b < kBlocks; ++b) {
    float amax = 0;
    for (int i = 0; i < kQ8_0BlockSize; ++i) amax = std::fmax(amax, std::fabs(x[b * 32 + i]));
    const float d = amax / 127;
    const float bound = d * (0.5f + 127.0f / 2048.0f) * 1.0001f;
    for (int i = 0; i < kQ8_0BlockSize; ++i) {
      ASSERT_LE(std::fabs(x[b * 32 + i] - y[b * 32 + i]), bound)
          << "seed " << testing::kSeed << " block " << b << " element " << i;
    }
  }
}

}  // namespace
}  // namespace cpubrrr
