// Checks MXFP4 scales, codes, round trip and the legacy Ollama layout by hand; no llama.cpp.
#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "quant/mxfp4.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

TEST(Mxfp4, HalfScaleIsTwoToTheEMinus128) {
  EXPECT_EQ(std::bit_cast<uint32_t>(E8m0ToFp32Half(0)), 0x00200000u);  // 2^-128
  EXPECT_EQ(std::bit_cast<uint32_t>(E8m0ToFp32Half(1)), 0x00400000u);  // 2^-127
  EXPECT_EQ(E8m0ToFp32Half(2), std::ldexp(1.0f, -126));
  EXPECT_EQ(E8m0ToFp32Half(127), 0.5f);
  EXPECT_EQ(E8m0ToFp32Half(128), 1.0f);
  EXPECT_EQ(E8m0ToFp32Half(254), std::ldexp(1.0f, 126));
  EXPECT_EQ(E8m0ToFp32Half(255), std::ldexp(1.0f, 127));
}

// Returns the decoded element k of a block whose every nibble is `code`.
float DecodeUniform(uint8_t e, uint8_t code, int k) {
  BlockMxfp4 b;
  b.e = e;
  for (auto& q : b.qs) q = static_cast<uint8_t>(code | code << 4);
  float y[kMxfp4BlockSize];
  DequantizeRowMxfp4(&b, y, kMxfp4BlockSize);
  return y[k];
}

TEST(Mxfp4, DecodesCodesAtTheSpecScale) {
  // E8M0 e = 127 is a scale of 2^0, so codes decode to their plain E2M1 values;
  // e = 128 is 2^1 and doubles them. Code 7 is E2M1 6.0, code 15 is -6.0.
  EXPECT_EQ(DecodeUniform(127, 7, 0), 6.0f);
  EXPECT_EQ(DecodeUniform(127, 1, 31), 0.5f);
  EXPECT_EQ(DecodeUniform(127, 15, 16), -6.0f);
  EXPECT_EQ(DecodeUniform(128, 7, 5), 12.0f);
  EXPECT_EQ(DecodeUniform(128, 14, 20), -8.0f);  // code 14 is E2M1 -4.0, at scale 2
  EXPECT_EQ(std::bit_cast<uint32_t>(DecodeUniform(127, 8, 3)), 0x00000000u);  // int 0: +0
}

TEST(Mxfp4, PlacesElementJInLowNibbleAndJPlus16InHighNibble) {
  BlockMxfp4 b{};
  b.e = 127;
  b.qs[3] = 0x51;  // element 3 = code 1 (0.5), element 19 = code 5 (3.0)
  float y[kMxfp4BlockSize];
  DequantizeRowMxfp4(&b, y, kMxfp4BlockSize);
  EXPECT_EQ(y[3], 0.5f);
  EXPECT_EQ(y[19], 3.0f);
}

TEST(Mxfp4, EncodesHandComputedBlock) {
  // amax 6: e = floor(log2 6) - 2 + 127 = 127, grid {0, .5, 1, 1.5, 2, 3, 4, 6}.
  float x[kMxfp4BlockSize] = {6.0f, -3.0f, 0.25f, 5.0f, 1.2f};
  x[16] = -0.7f;
  BlockMxfp4 b;
  QuantizeRowMxfp4(x, &b, kMxfp4BlockSize);
  EXPECT_EQ(b.e, 127);
  EXPECT_EQ(b.qs[0], 0x07 | 0x09 << 4);  // 6.0 -> 7; element 16: -0.7 -> -0.5 = 9
  EXPECT_EQ(b.qs[1], 0x0D);  // -3 -> 13
  EXPECT_EQ(b.qs[2], 0x00);  // 0.25: tie between 0 and 0.5, lower code wins
  EXPECT_EQ(b.qs[3], 0x06);  // 5.0: tie between 4 and 6, lower code wins
  EXPECT_EQ(b.qs[4], 0x02);  // 1.2 -> 1.0
}

TEST(Mxfp4, RoundTripErrorIsWithinFourHalfScales) {
  // amax lies in [8s, 16s) for half scale s; codes reach 12s with gaps of at most 4s,
  // so an element inside the grid is off by <= 2s and one above 12s by < 4s.
  std::mt19937 rng(testing::kSeed);
  constexpr int kBlocks = 2000;
  const auto x = testing::RandomFloats(testing::Dist::kNormal, kBlocks * kMxfp4BlockSize,
                                       kMxfp4BlockSize, rng);
  std::vector<BlockMxfp4> blocks(kBlocks);
  std::vector<float> y(x.size());
  QuantizeRowMxfp4(x.data(), blocks.data(), x.size());
  DequantizeRowMxfp4(blocks.data(), y.data(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float s = E8m0ToFp32Half(blocks[i / kMxfp4BlockSize].e);
    ASSERT_LE(std::fabs(x[i] - y[i]), 4 * s) << "seed " << testing::kSeed << " element " << i;
  }
}

TEST(Mxfp4, ConvertsLegacyOllamaBlock) {
  // Legacy: byte 0 = e, bytes 1..8 = elements 0..15, bytes 9..16 = elements 16..31, as
  // (even element low nibble, odd element high nibble). Elements 0..15 are codes 0..15
  // and elements 16..31 codes 15..0.
  const uint8_t legacy[17] = {0x80, 0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,
                              0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01};
  BlockMxfp4 b;
  ConvertOllamaLegacyMxfp4Block(legacy, &b);
  EXPECT_EQ(b.e, 0x80);
  for (int k = 0; k < 16; ++k) EXPECT_EQ(b.qs[k], k | (15 - k) << 4) << k;
}

TEST(Mxfp4, LegacyConversionPreservesEveryElement) {
  std::mt19937 rng(testing::kSeed);
  for (int trial = 0; trial < 1000; ++trial) {
    const auto codes = testing::RandomBytes(kMxfp4BlockSize + 1, rng);
    uint8_t legacy[17];
    legacy[0] = codes[kMxfp4BlockSize];
    for (int j = 0; j < 8; ++j) {
      legacy[1 + j] = (codes[2 * j] & 15) | (codes[2 * j + 1] & 15) << 4;
      legacy[9 + j] = (codes[16 + 2 * j] & 15) | (codes[17 + 2 * j] & 15) << 4;
    }
    BlockMxfp4 b;
    ConvertOllamaLegacyMxfp4Block(legacy, &b);
    ASSERT_EQ(b.e, legacy[0]);
    for (int k = 0; k < kMxfp4BlockSize; ++k) {
      const int got = k < 16 ? b.qs[k] & 15 : b.qs[k - 16] >> 4;
      ASSERT_EQ(got, codes[k] & 15) << "seed " << testing::kSeed << " trial " << trial;
    }
  }
}

}  // namespace
}  // namespace cpubrrr
