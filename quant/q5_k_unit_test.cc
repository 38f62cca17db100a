// Checks Q5_K element layout (nibbles plus qh bits), encoding and round-trip error by hand; no llama.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "quant/q5_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

// Eight scales and mins and their 12-byte packing (the Q4_K packing, see q4_k_unit_test).
constexpr uint8_t kSc[8] = {10, 20, 30, 40, 50, 60, 33, 63};
constexpr uint8_t kM[8] = {5, 15, 25, 35, 45, 55, 17, 62};
constexpr uint8_t kPacked[12] = {202, 212, 158, 232, 133, 207, 89, 227, 210, 124, 17, 239};

TEST(Q5K, DecodesElementsFromTheSpecifiedNibblesAndHighBits) {
  BlockQ5K b{};
  b.d = 0x3C00;     // 1.0
  b.dmin = 0x3800;  // 0.5
  std::copy(kPacked, kPacked + 12, b.scales);
  for (int i = 0; i < 128; ++i) b.qs[i] = static_cast<uint8_t>((i * 7) & 0xFF);
  for (int i = 0; i < 32; ++i) b.qh[i] = static_cast<uint8_t>((i * 29 + 3) & 0xFF);
  float y[kQ5KBlockSize];
  DequantizeRowQ5K(&b, y, kQ5KBlockSize);
  for (int k = 0; k < kQ5KBlockSize; ++k) {
    const int sub = k / 32, i = k % 32;
    const uint8_t byte = b.qs[32 * (sub / 2) + i];
    const int low = sub % 2 ? byte >> 4 : byte & 15;
    const int q = low + ((b.qh[i] >> sub) & 1) * 16;
    ASSERT_EQ(Q5KQuant(b, sub, i), q) << k;
    ASSERT_EQ(y[k], 1.0f * kSc[sub] * q - 0.5f * kM[sub]) << k;
  }
}

TEST(Q5K, EncodesZeroBlockAsAllZeroBytes) {
  std::vector<float> x(kQ5KBlockSize, 0.0f);
  BlockQ5K b;
  std::memset(&b, 0xAA, sizeof(b));
  QuantizeRowQ5K(x.data(), &b, kQ5KBlockSize);
  const BlockQ5K zero{};
  EXPECT_EQ(std::memcmp(&b, &zero, sizeof(b)), 0);
}

// A ramp over 0..31 in every sub-block uses every 5-bit value, so each qh bit is set for
// exactly the upper half of its sub-block and the decode gives the ramp back.
TEST(Q5K, EncodesARampWithEveryFifthBit) {
  std::vector<float> x(kQ5KBlockSize);
  for (int k = 0; k < kQ5KBlockSize; ++k) x[k] = static_cast<float>(k % 32);
  BlockQ5K b;
  QuantizeRowQ5K(x.data(), &b, kQ5KBlockSize);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(b.qh[i], i < 16 ? 0x00 : 0xFF) << i;
  std::vector<float> y(kQ5KBlockSize);
  DequantizeRowQ5K(&b, y.data(), kQ5KBlockSize);
  for (int k = 0; k < kQ5KBlockSize; ++k) EXPECT_NEAR(y[k], x[k], 0.05f) << k;
}

TEST(Q5K, RoundTripErrorIsWithinOneGridStepOfTheBlockRange) {
  // A 5-bit grid over the super-block's range [min(x, 0), max x] has step range/31 and
  // half-step error; 6-bit scales and mins and the least-squares fit may shift the grid,
  // so this sanity check allows a full step. Bit-exactness is proven in q5_k_test.
  std::mt19937 rng(testing::kSeed);
  constexpr int kBlocks = 500;
  for (testing::Dist dist : {testing::Dist::kNormal, testing::Dist::kUniform,
                             testing::Dist::kOffset}) {
    const auto x = testing::RandomFloats(dist, kBlocks * kQ5KBlockSize, kQ5KBlockSize, rng);
    std::vector<BlockQ5K> blocks(kBlocks);
    std::vector<float> y(x.size());
    QuantizeRowQ5K(x.data(), blocks.data(), x.size());
    DequantizeRowQ5K(blocks.data(), y.data(), x.size());
    for (int b = 0; b < kBlocks; ++b) {
      float lo = 0, hi = 0;
      for (int i = 0; i < kQ5KBlockSize; ++i) {
        lo = std::fmin(lo, x[b * 256 + i]);
        hi = std::fmax(hi, x[b * 256 + i]);
      }
      for (int i = 0; i < kQ5KBlockSize; ++i) {
        ASSERT_LE(std::fabs(x[b * 256 + i] - y[b * 256 + i]), (hi - lo) / 31)
            << "seed " << testing::kSeed << " " << testing::DistName(dist) << " block " << b;
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
