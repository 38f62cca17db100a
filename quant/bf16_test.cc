// Compares Bf16ToFp32 / Fp32ToBf16 bit for bit with ggml's ggml_bf16_to_fp32 / ggml_fp32_to_bf16.
#include <bit>
#include <cstdint>
#include <random>

#include "ggml.h"
#include "gtest/gtest.h"
#include "quant/bf16.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

TEST(Bf16VsGgml, DecodesAll65536PatternsIdentically) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    ggml_bf16_t ref_in;
    ref_in.bits = static_cast<uint16_t>(h);
    const uint32_t ours = std::bit_cast<uint32_t>(Bf16ToFp32(static_cast<uint16_t>(h)));
    const uint32_t ref = std::bit_cast<uint32_t>(ggml_bf16_to_fp32(ref_in));
    ASSERT_EQ(ours, ref) << "bf16 0x" << std::hex << h;
  }
}

// Expects both encoders to give the same bf16 bits for the float with bits u.
void ExpectSameEncoding(uint32_t u) {
  const float f = std::bit_cast<float>(u);
  ASSERT_EQ(Fp32ToBf16(f), ggml_fp32_to_bf16(f).bits) << "float bits 0x" << std::hex << u;
}

TEST(Bf16VsGgml, EncodesEveryTopHalfWithRoundingCriticalLowBits) {
  // The low half decides rounding: below, at and above the halfway point 0x8000.
  constexpr uint32_t kLow[] = {0x0000, 0x0001, 0x4000, 0x7FFF, 0x8000,
                               0x8001, 0xBFFF, 0xFFFF};
  for (uint32_t hi = 0; hi <= 0xFFFF; ++hi) {
    for (uint32_t lo : kLow) ExpectSameEncoding(hi << 16 | lo);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(Bf16VsGgml, EncodesRandomFloatBitsIdentically) {
  std::mt19937 rng(kSeed);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 1000000; ++i) {
    ExpectSameEncoding(bits(rng));
    if (::testing::Test::HasFatalFailure()) {
      FAIL() << "seed " << kSeed << ", draw " << i;
    }
  }
}

TEST(Bf16VsGgml, EncodesSpecialValuesIdentically) {
  constexpr uint32_t kSpecial[] = {
      0x00000000, 0x80000000, 0x7F800000, 0xFF800000,  // zeros, infinities
      0x7F800001, 0x7F808000, 0xFF800001, 0x7FC00000, 0x7FFFFFFF,  // NaNs
      0x7F7FFFFF, 0x7F7F8000, 0x7F7F7FFF,  // largest finite: rounds to inf or not
      0x00000001, 0x00008000, 0x00018000,  // subnormal ties
  };
  for (uint32_t u : kSpecial) ExpectSameEncoding(u);
}

}  // namespace
}  // namespace cpubrrr
