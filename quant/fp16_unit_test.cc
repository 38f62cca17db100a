// Checks fp16 conversion against hand-computed IEEE binary16 values; needs no llama.cpp.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

TEST(Fp16, EncodesHandComputedValues) {
  EXPECT_EQ(Fp32ToFp16(0.0f), 0x0000);
  EXPECT_EQ(Fp32ToFp16(-0.0f), 0x8000);
  EXPECT_EQ(Fp32ToFp16(1.0f), 0x3C00);
  EXPECT_EQ(Fp32ToFp16(-2.0f), 0xC000);
  EXPECT_EQ(Fp32ToFp16(0.333333343f), 0x3555);
  EXPECT_EQ(Fp32ToFp16(65504.0f), 0x7BFF);       // largest finite
  EXPECT_EQ(Fp32ToFp16(65519.99f), 0x7BFF);      // below the overflow tie
  EXPECT_EQ(Fp32ToFp16(65520.0f), 0x7C00);       // tie rounds to even: infinity
  EXPECT_EQ(Fp32ToFp16(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(Fp32ToFp16(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(Fp32ToFp16(std::ldexp(1.0f, -25)), 0x0000);  // tie with 0: even wins
  EXPECT_EQ(Fp32ToFp16(std::ldexp(3.0f, -25)), 0x0002);  // tie 1.5 ulp: even wins
  EXPECT_EQ(Fp32ToFp16(std::ldexp(1.0f, -25) * 1.0001f), 0x0001);
  EXPECT_EQ(Fp32ToFp16(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie: even
  EXPECT_EQ(Fp32ToFp16(1.0f + std::ldexp(3.0f, -11)), 0x3C02);  // tie: even
  EXPECT_EQ(Fp32ToFp16(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(Fp32ToFp16(-std::numeric_limits<float>::infinity()), 0xFC00);
  EXPECT_EQ(Fp32ToFp16(std::bit_cast<float>(0x7F800001u)), 0x7E00);
  EXPECT_EQ(Fp32ToFp16(std::bit_cast<float>(0xFFC12345u)), 0xFE00);
}

TEST(Fp16, DecodesHandComputedValues) {
  EXPECT_EQ(Fp16ToFp32(0x3C00), 1.0f);
  EXPECT_EQ(Fp16ToFp32(0xC000), -2.0f);
  EXPECT_EQ(Fp16ToFp32(0x7BFF), 65504.0f);
  EXPECT_EQ(Fp16ToFp32(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(Fp16ToFp32(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(std::bit_cast<uint32_t>(Fp16ToFp32(0x8000)), 0x80000000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(Fp16ToFp32(0x7C00)), 0x7F800000u);
  // A signalling NaN comes back quiet with its payload shifted into place.
  EXPECT_EQ(std::bit_cast<uint32_t>(Fp16ToFp32(0x7C01)), 0x7FC02000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(Fp16ToFp32(0xFE00)), 0xFFC00000u);
}

TEST(Fp16, RoundTripsEveryNonNanPattern) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    if ((h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0) continue;  // NaN payloads collapse
    ASSERT_EQ(Fp32ToFp16(Fp16ToFp32(static_cast<uint16_t>(h))), h) << std::hex << h;
  }
}

}  // namespace
}  // namespace cpubrrr
