// RmsNorm (Highway, every target) equals RmsNormRef bit for bit on random vectors and edge sizes.
#include "kernels/f32/rmsnorm.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/f32/test_util.h"

namespace cpubrrr {
namespace {

using testing::kF32Seed;

void Check(size_t n, bool with_weight, float sigma, std::mt19937& rng) {
  const std::vector<float> x = testing::RandomNormal(n, sigma, rng);
  const std::vector<float> w = testing::RandomUniform(n, 0.5f, 2.0f, rng);
  const float* wp = with_weight ? w.data() : nullptr;
  std::vector<float> ref(n), out(n, NAN);
  RmsNormRef(x.data(), wp, n, 1e-5f, ref.data());
  testing::ForEachHwyTarget([&] {
    RmsNorm(x.data(), wp, n, 1e-5f, out.data());
    // Both sum the float squares into a double in order (ggml's RMSNorm): same bits.
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], ref[i]) << "n " << n << " i " << i << " weight " << with_weight
                                << " seed " << kF32Seed;
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
    ASSERT_EQ(x[i], ref[i]) << i;
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
