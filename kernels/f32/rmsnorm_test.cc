// RmsNorm (Highway, every target) against RmsNormRef on random vectors and edge sizes.
#include "kernels/f32/rmsnorm.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/f32/test_util.h"

namespace cpubrrr {
namespace {

using testing::Gamma;
using testing::kF32Seed;
using testing::kU;

// Bound on |RmsNorm - RmsNormRef| / |ref|. The reference's double sum is exact to far
// below float rounding. The Highway sum of n nonnegative squares runs in 4 vector
// accumulators of L lanes (L = 1 on the SCALAR target, the worst case): at most n / 4
// additions per lane, 3 to combine the accumulators, log2(16) in the lane reduction
// and up to 15 tail additions, so k = n / 4 + 22 and the sum is within gamma_k. scale = 1/sqrt(sum/n + eps) halves
// that relative error (sqrt) and both sides round mean, add, sqrt, divide and the two
// output products alike except for the propagated difference: 6 u more.
double Bound(size_t n) { return 0.5 * Gamma(n / 4.0 + 22) + 6 * kU; }

void Check(size_t n, bool with_weight, float sigma, std::mt19937& rng) {
  const std::vector<float> x = testing::RandomNormal(n, sigma, rng);
  const std::vector<float> w = testing::RandomUniform(n, 0.5f, 2.0f, rng);
  const float* wp = with_weight ? w.data() : nullptr;
  std::vector<float> ref(n), out(n, NAN);
  RmsNormRef(x.data(), wp, n, 1e-5f, ref.data());
  testing::ForEachHwyTarget([&] {
    RmsNorm(x.data(), wp, n, 1e-5f, out.data());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_NEAR(out[i], ref[i], Bound(n) * std::fabs(ref[i]))
          << "n " << n << " i " << i << " weight " << with_weight << " seed " << kF32Seed;
    }
  });
}

TEST(RmsNorm, MatchesReferenceOnEdgeSizes) {
  std::mt19937 rng(kF32Seed);
  for (size_t n : testing::kEdgeSizes) {
    Check(n, true, 1.0f, rng);
    Check(n, false, 1.0f, rng);
  }
}

TEST(RmsNorm, MatchesReferenceOnLargeAndTinyScales) {
  std::mt19937 rng(kF32Seed + 1);
  for (float sigma : {1e-3f, 30.0f, 1e4f}) {
    Check(2880, true, sigma, rng);
    Check(4097, false, sigma, rng);
  }
}

TEST(RmsNorm, WorksInPlace) {
  std::mt19937 rng(kF32Seed + 2);
  std::vector<float> x = testing::RandomNormal(2048, 1.0f, rng);
  std::vector<float> ref(x.size());
  RmsNormRef(x.data(), nullptr, x.size(), 1e-6f, ref.data());
  RmsNorm(x.data(), nullptr, x.size(), 1e-6f, x.data());
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_NEAR(x[i], ref[i], Bound(x.size()) * std::fabs(ref[i])) << i;
  }
}

TEST(RmsNorm, ConstantVectorNormalizesToOne) {
  // mean(x^2) = 4 exactly, eps = 0: scale = 0.5 exactly, every output is 1.
  const std::vector<float> x(67, 2.0f);
  std::vector<float> ref(x.size()), out(x.size());
  RmsNormRef(x.data(), nullptr, x.size(), 0.0f, ref.data());
  testing::ForEachHwyTarget([&] {
    RmsNorm(x.data(), nullptr, x.size(), 0.0f, out.data());
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(ref[i], 1.0f);
      ASSERT_EQ(out[i], 1.0f);
    }
  });
}

}  // namespace
}  // namespace cpubrrr
