// Compares Fp16ToFp32 / Fp32ToFp16 bit for bit with ggml's ggml_fp16_to_fp32 / ggml_fp32_to_fp16.
#include <bit>
#include <cstdint>
#include <random>

#include "ggml.h"
#include "gtest/gtest.h"
#include "quant/fp16.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

TEST(Fp16VsGgml, DecodesAll65536PatternsIdentically) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const uint32_t ours = std::bit_cast<uint32_t>(Fp16ToFp32(static_cast<uint16_t>(h)));
    const uint32_t ref = std::bit_cast<uint32_t>(ggml_fp16_to_fp32(static_cast<ggml_fp16_t>(h)));
    ASSERT_EQ(ours, ref) << "fp16 0x" << std::hex << h;
  }
}

// Expects both encoders to give the same fp16 bits for the float with bits u.
void ExpectSameEncoding(uint32_t u) {
  const float f = std::bit_cast<float>(u);
  ASSERT_EQ(Fp32ToFp16(f), ggml_fp32_to_fp16(f)) << "float bits 0x" << std::hex << u;
}

TEST(Fp16VsGgml, EncodesEveryTopHalfWithRoundingCriticalLowBits) {
  // Every sign/exponent/top-7-mantissa combination, with low halves at and around the
  // halfway points of fp16 rounding for normal (bit 12) and subnormal (higher) targets.
  constexpr uint32_t kLow[] = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000,
                               0x2001, 0x3000, 0x7FFF, 0x8000, 0x8001, 0xC000, 0xFFFF};
  for (uint32_t hi = 0; hi <= 0xFFFF; ++hi) {
    for (uint32_t lo : kLow) ExpectSameEncoding(hi << 16 | lo);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(Fp16VsGgml, EncodesRandomFloatBitsIdentically) {
  std::mt19937 rng(kSeed);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 1000000; ++i) {
    ExpectSameEncoding(bits(rng));
    if (::testing::Test::HasFatalFailure()) {
      FAIL() << "seed " << kSeed << ", draw " << i;
    }
  }
}

TEST(Fp16VsGgml, EncodesSpecialValuesIdentically) {
  constexpr uint32_t kSpecial[] = {
      0x00000000, 0x80000000,  // zeros
      0x7F800000, 0xFF800000,  // infinities
      0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF, 0x7FFFFFFF,  // NaNs
      0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001,  // 65504 and the overflow tie
      0x33800000, 0x33000000, 0x33000001, 0x33400000,  // 2^-24, its half, near half
      0x38800000, 0x387FC000, 0x387FE000,               // smallest normal and below
      0x00000001, 0x007FFFFF,                           // float subnormals
  };
  for (uint32_t u : kSpecial) ExpectSameEncoding(u);
}

}  // namespace
}  // namespace cpubrrr
