// Checks Q6_K element layout, a hand-computed block and round-trip error; no llama.cpp.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "quant/q6_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

TEST(Q6K, DecodesElementsFromTheSpecifiedBits) {
  std::mt19937 rng(testing::kSeed);
  BlockQ6K b;
  const auto bytes = testing::RandomBytes(sizeof(b), rng);
  std::memcpy(&b, bytes.data(), sizeof(b));
  b.d = 0x3400;  // 0.25
  float y[kQ6KBlockSize];
  DequantizeRowQ6K(&b, y, kQ6KBlockSize);
  // MODEL_SPEC.md: in half h, quarter k (elements 128h + 32k + l) takes qh[l] bits
  // 2k..2k+1 and the low nibble of ql[l] (k=0), ql[l+32] (k=1), else their high nibble.
  for (int h = 0; h < 2; ++h) {
    const uint8_t* ql = b.ql + 64 * h;
    const uint8_t* qh = b.qh + 32 * h;
    for (int l = 0; l < 32; ++l) {
      const int q[4] = {(ql[l] & 15) | (qh[l] & 3) << 4,
                        (ql[l + 32] & 15) | (qh[l] >> 2 & 3) << 4,
                        (ql[l] >> 4) | (qh[l] >> 4 & 3) << 4,
                        (ql[l + 32] >> 4) | (qh[l] >> 6 & 3) << 4};
      for (int k = 0; k < 4; ++k) {
        const int e = 128 * h + 32 * k + l;
        ASSERT_EQ(y[e], 0.25f * b.scales[e / 16] * (q[k] - 32)) << e;
      }
    }
  }
}

TEST(Q6K, EncodesGridValuesExactly) {
  // Every sub-block holds -17/8 .. -32/8: multiples of 1/8 whose largest magnitude, -4,
  // maps to quant -32. That first grid fits with zero error, so the search keeps it;
  // every sub-block scale is 1/8, stored as int8 -128 times fp16 d = -1/1024 (exact).
  std::vector<float> x(kQ6KBlockSize);
  for (int i = 0; i < kQ6KBlockSize; ++i) x[i] = -static_cast<float>(i % 16 + 17) / 8;
  BlockQ6K b;
  std::vector<float> y(kQ6KBlockSize);
  QuantizeRowQ6K(x.data(), &b, kQ6KBlockSize);
  DequantizeRowQ6K(&b, y.data(), kQ6KBlockSize);
  EXPECT_EQ(b.d, 0x9400);  // -2^-10
  for (int j = 0; j < 16; ++j) EXPECT_EQ(b.scales[j], -128) << j;
  for (int i = 0; i < kQ6KBlockSize; ++i) EXPECT_EQ(y[i], x[i]) << i;
}

TEST(Q6K, EncodesZeroBlockAsAllZeroBytes) {
  std::vector<float> x(kQ6KBlockSize, 0.0f);
  BlockQ6K b;
  std::memset(&b, 0xAA, sizeof(b));
  QuantizeRowQ6K(x.data(), &b, kQ6KBlockSize);
  const BlockQ6K zero{};
  EXPECT_EQ(std::memcmp(&b, &zero, sizeof(b)), 0);
}

TEST(Q6K, RoundTripErrorIsWithinTwoGridStepsOfTheBlockMax) {
  // A 6-bit signed grid reaching the block's largest magnitude amax has step amax/32
  // and half-step error; the int8 sub-block scales and the least-squares choice of
  // scale (which may clip the largest values) can cost more, so this sanity check
  // allows two steps. Bit-exactness is proven in q6_k_test.
  std::mt19937 rng(testing::kSeed);
  constexpr int kBlocks = 500;
  for (testing::Dist dist : {testing::Dist::kNormal, testing::Dist::kUniform,
                             testing::Dist::kOutliers, testing::Dist::kOffset}) {
    const auto x = testing::RandomFloats(dist, kBlocks * kQ6KBlockSize, kQ6KBlockSize, rng);
    std::vector<BlockQ6K> blocks(kBlocks);
    std::vector<float> y(x.size());
    QuantizeRowQ6K(x.data(), blocks.data(), x.size());
    DequantizeRowQ6K(blocks.data(), y.data(), x.size());
    for (int b = 0; b < kBlocks; ++b) {
      float amax = 0;
      for (int i = 0; i < kQ6KBlockSize; ++i) amax = std::fmax(amax, std::fabs(x[b * 256 + i]));
      for (int i = 0; i < kQ6KBlockSize; ++i) {
        ASSERT_LE(std::fabs(x[b * 256 + i] - y[b * 256 + i]), amax / 16)
            << "seed " << testing::kSeed << " " << testing::DistName(dist) << " block " << b;
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
