// The vector sum trees of avx512_lane_sums.h give ggml_x86::Sum8 / Sum4 bit for bit.
#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "kernels/testing/variant_test_util.h"
#include "kernels/kquant/avx512_lane_sums_calls.h"
#include "kernels/kquant/ggml_x86_order.h"

namespace cpubrrr {
namespace {

class LaneSumsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    struct {
      const char* name;
      CpuFeatures required;
    } const sums = {"avx512_lane_sums", kCpuAvx512};
    testing::SkipUnlessCpuRuns(sums);
  }
};

// Lanes spread over many magnitudes and both signs, so a different addition order
// rounds differently.
void Fill(std::mt19937& rng, float* v) {
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  for (int i = 0; i < 16; ++i) v[i] = std::ldexp(mantissa(rng), exponent(rng));
}

TEST_F(LaneSumsTest, Sum8HalvesIsSum8OfEachHalf) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 10000; ++trial) {
    float v[16], out[16];
    Fill(rng, v);
    avx512::Sum8HalvesOf(v, out);
    ASSERT_EQ(out[0], ggml_x86::Sum8(v)) << trial;
    ASSERT_EQ(out[8], ggml_x86::Sum8(v + 8)) << trial;
  }
}

TEST_F(LaneSumsTest, Sum4QuartersIsSum4OfEachQuarter) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 10000; ++trial) {
    float v[16], out[16];
    Fill(rng, v);
    avx512::Sum4QuartersOf(v, out);
    for (int q = 0; q < 4; ++q) ASSERT_EQ(out[4 * q], ggml_x86::Sum4(v + 4 * q)) << trial << " " << q;
  }
}

}  // namespace
}  // namespace cpubrrr
