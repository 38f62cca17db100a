// Every bf16-weight variant against bf16_ref: gemv, gemm and the row fetch, every Highway target.
#include "kernels/bf16/bf16.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "kernels/testing/half_test_util.h"
#include "quant/bf16.h"

namespace cpubrrr {
namespace {

// The format's pieces for testing::HalfWeightsTest.
struct Bf16Format {
  using Kernels = Bf16Kernels;
  static const Bf16Kernels& Ref() { return kBf16KernelsRef; }
  static uint16_t FromFloat(float f) { return Fp32ToBf16(f); }
  static float ToFloat(uint16_t h) { return Bf16ToFp32(h); }
};

class Bf16Test : public testing::HalfWeightsTest<Bf16Format> {};

TEST_P(Bf16Test, GemvMatchesReference) { CheckGemvMatchesReference(); }
TEST_P(Bf16Test, GemmEqualsGemvPerToken) { CheckGemmEqualsGemvPerToken(); }
TEST_P(Bf16Test, RowToF32IsExact) { CheckRowToF32IsExact({0x7F7F /* largest finite */, 0x0001 /* subnormal */, 0x8000 /* -0 */, 0x3F80 /* 1 */}); }

TEST(Bf16Registry, BestIsTheFirstSupportedVariant) {
  ASSERT_FALSE(AllBf16Variants().empty());
  EXPECT_STREQ(BestBf16Kernels().name, AllBf16Variants().front().name);
  EXPECT_STREQ(AllBf16Variants().back().name, "ref");
}

INSTANTIATE_TEST_SUITE_P(Variants, Bf16Test, ::testing::ValuesIn(AllBf16Variants()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cpubrrr
