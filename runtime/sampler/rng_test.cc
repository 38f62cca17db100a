// Checks the generators against published test vectors and the uniform's range.
#include "runtime/sampler/rng.h"

#include <cmath>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(Rng, SplitMix64MatchesReference) {
  uint64_t state = 0;
  EXPECT_EQ(SplitMix64(state), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(SplitMix64(state), 0x6E789E6AA1B965F4ull);
}

TEST(Rng, Xoshiro256StarStarMatchesReference) {
  Xoshiro256 r = Xoshiro256::FromState(1, 2, 3, 4);
  EXPECT_EQ(r.Next(), 11520ull);
  EXPECT_EQ(r.Next(), 0ull);
  EXPECT_EQ(r.Next(), 1509978240ull);
  EXPECT_EQ(r.Next(), 1215971899390074240ull);
}

TEST(Rng, UniformIsInUnitIntervalWithMeanOneHalf) {
  Xoshiro256 r(7);
  const int n = 100000;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    double u = r.Uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  // The mean of n uniforms has standard deviation sqrt(1/12/n) ~ 0.0009; allow 5 sigma.
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / 12 / n));
}

}  // namespace
}  // namespace cpubrrr
