// Checks bf16 conversion against hand-computed values; needs no llama.cpp.
#include <bit>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "quant/bf16.h"

namespace cpubrrr {
namespace {

uint16_t Enc(uint32_t float_bits) { return Fp32ToBf16(std::bit_cast<float>(float_bits)); }

TEST(Bf16, EncodesHandComputedValues) {
  EXPECT_EQ(Fp32ToBf16(1.0f), 0x3F80);
  EXPECT_EQ(Fp32ToBf16(-2.0f), 0xC000);
  EXPECT_EQ(Enc(0x3F807FFF), 0x3F80);  // below half: down
  EXPECT_EQ(Enc(0x3F808000), 0x3F80);  // tie, even kept
  EXPECT_EQ(Enc(0x3F818000), 0x3F82);  // tie, odd rounds up to even
  EXPECT_EQ(Enc(0x3F808001), 0x3F81);  // above half: up
  EXPECT_EQ(Enc(0x7F7FFFFF), 0x7F80);  // largest float rounds to infinity
  EXPECT_EQ(Enc(0x00008000), 0x0000);  // subnormal tie
  EXPECT_EQ(Fp32ToBf16(std::numeric_limits<float>::infinity()), 0x7F80);
  EXPECT_EQ(Enc(0x7F800001), 0x7FC0);  // signalling NaN made quiet, not infinity
  EXPECT_EQ(Enc(0xFF812345), 0xFFC1);  // sign and top payload bits kept
}

TEST(Bf16, RoundTripsEveryNonNanPattern) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float f = Bf16ToFp32(static_cast<uint16_t>(h));
    ASSERT_EQ(std::bit_cast<uint32_t>(f), h << 16);
    if ((h & 0x7F80) == 0x7F80 && (h & 0x007F) != 0) continue;  // NaN gets quiet bit
    ASSERT_EQ(Fp32ToBf16(f), h) << std::hex << h;
  }
}

}  // namespace
}  // namespace cpubrrr
