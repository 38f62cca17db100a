// Checks Q4_K scale packing, element layout and round-trip error by hand; no llama.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "quant/q4_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

// Scales and mins of eight sub-blocks and their 12-byte packing, worked out by hand from
// MODEL_SPEC.md: bytes 0..3 = sc[j] | (sc[j+4] >> 4) << 6, bytes 4..7 = m[j] |
// (m[j+4] >> 4) << 6, bytes 8..11 = (sc[j+4] & 15) | (m[j+4] & 15) << 4.
constexpr uint8_t kSc[8] = {10, 20, 30, 40, 50, 60, 33, 63};
constexpr uint8_t kM[8] = {5, 15, 25, 35, 45, 55, 17, 62};
constexpr uint8_t kPacked[12] = {202, 212, 158, 232, 133, 207, 89, 227, 210, 124, 17, 239};

TEST(Q4K, UnpacksHandPackedScalesAndMins) {
  for (int j = 0; j < 8; ++j) {
    uint8_t sc, m;
    GetScaleMinK4(j, kPacked, &sc, &m);
    EXPECT_EQ(sc, kSc[j]) << j;
    EXPECT_EQ(m, kM[j]) << j;
  }
}

TEST(Q4K, DecodesElementsFromTheSpecifiedNibbles) {
  BlockQ4K b{};
  b.d = 0x3C00;     // 1.0
  b.dmin = 0x3800;  // 0.5
  std::copy(kPacked, kPacked + 12, b.scales);
  for (int i = 0; i < 128; ++i) b.qs[i] = static_cast<uint8_t>((i * 7) & 0xFF);
  float y[kQ4KBlockSize];
  DequantizeRowQ4K(&b, y, kQ4KBlockSize);
  for (int k = 0; k < kQ4KBlockSize; ++k) {
    const int sub = k / 32;
    const uint8_t byte = b.qs[32 * (sub / 2) + k % 32];
    const int q = sub % 2 ? byte >> 4 : byte & 15;
    ASSERT_EQ(y[k], 1.0f * kSc[sub] * q - 0.5f * kM[sub]) << k;
  }
}

TEST(Q4K, EncodesZeroBlockAsAllZeroBytes) {
  std::vector<float> x(kQ4KBlockSize, 0.0f);
  BlockQ4K b;
  QuantizeRowQ4K(x.data(), &b, kQ4KBlockSize);
  const BlockQ4K zero{};
  EXPECT_EQ(std::memcmp(&b, &zero, sizeof(b)), 0);
}

TEST(Q4K, RoundTripErrorIsWithinOneGridStepOfTheBlockRange) {
  // A 4-bit grid over the super-block's range [min(x, 0), max x] has step range/15 and
  // half-step error; 6-bit scales and mins and the least-squares fit may shift the grid,
  // so this sanity check allows a full step. Bit-exactness is proven in q4_k_test.
  std::mt19937 rng(testing::kSeed);
  constexpr int kBlocks = 500;
  for (testing::Dist dist : {testing::Dist::kNormal, testing::Dist::kUniform,
                             testing::Dist::kOffset}) {
    const auto x = testing::RandomFloats(dist, kBlocks * kQ4KBlockSize, kQ4KBlockSize, rng);
    std::vector<BlockQ4K> blocks(kBlocks);
    std::vector<float> y(x.size());
    QuantizeRowQ4K(x.data(), blocks.data(), x.size());
    DequantizeRowQ4K(blocks.data(), y.data(), x.size());
    for (int b = 0; b < kBlocks; ++b) {
      float lo = 0, hi = 0;
      for (int i = 0; i < kQ4KBlockSize; ++i) {
        lo = std::fmin(lo, x[b * 256 + i]);
        hi = std::fmax(hi, x[b * 256 + i]);
      }
      for (int i = 0; i < kQ4KBlockSize; ++i) {
        ASSERT_LE(std::fabs(x[b * 256 + i] - y[b * 256 + i]), (hi - lo) / 15)
            << "seed " << testing::kSeed << " " << testing::DistName(dist) << " block " << b;
      }
    }
  }
}

TEST(Q4KUnit, PackScaleMinIsTheInverseOfGetScaleMin) {
  for (int v = 0; v < 64; ++v) {
    uint8_t sc[8], m[8], packed[12];
    for (int j = 0; j < 8; ++j) {
      sc[j] = static_cast<uint8_t>((v + 7 * j) % 64);
      m[j] = static_cast<uint8_t>((v * 3 + 11 * j) % 64);
    }
    PackScaleMinK4(sc, m, packed);
    for (int j = 0; j < 8; ++j) {
      uint8_t got_sc, got_m;
      GetScaleMinK4(j, packed, &got_sc, &got_m);
      EXPECT_EQ(got_sc, sc[j]) << "v " << v << " j " << j;
      EXPECT_EQ(got_m, m[j]) << "v " << v << " j " << j;
    }
  }
}

}  // namespace
}  // namespace cpubrrr
