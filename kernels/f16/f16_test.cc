// Every f16-weight variant against f16_ref: gemv, gemm and the row fetch, every Highway target.
#include "kernels/f16/f16.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "kernels/testing/half_test_util.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// The format's pieces for testing::HalfWeightsTest.
struct F16Format {
  using Kernels = F16Kernels;
  static const F16Kernels& Ref() { return kF16KernelsRef; }
  static uint16_t FromFloat(float f) { return Fp32ToFp16(f); }
  static float ToFloat(uint16_t h) { return Fp16ToFp32(h); }
};

class F16Test : public testing::HalfWeightsTest<F16Format> {};

TEST_P(F16Test, GemvMatchesReference) { CheckGemvMatchesReference(); }
TEST_P(F16Test, GemmEqualsGemvPerToken) { CheckGemmEqualsGemvPerToken(); }
TEST_P(F16Test, RowToF32IsExact) { CheckRowToF32IsExact({0x7BFF /* 65504 */, 0x0001 /* smallest subnormal */, 0x8000 /* -0 */, 0x3C00 /* 1 */}); }

TEST(F16Registry, BestIsTheFirstSupportedVariant) {
  ASSERT_FALSE(AllF16Variants().empty());
  EXPECT_STREQ(BestF16Kernels().name, AllF16Variants().front().name);
  EXPECT_STREQ(AllF16Variants().back().name, "ref");
}

INSTANTIATE_TEST_SUITE_P(Variants, F16Test, ::testing::ValuesIn(AllF16Variants()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cpubrrr
