// AddTo / ScaleAddTo (Highway, every target) against the scalar references.
#include "kernels/f32/vec.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/f32/test_util.h"

namespace cpubrrr {
namespace {

using testing::kF32Seed;
using testing::kU;

TEST(Vec, AddToIsBitExact) {
  std::mt19937 rng(kF32Seed);
  for (size_t n : testing::kEdgeSizes) {
    const std::vector<float> x = testing::RandomNormal(n, 1.0f, rng);
    const std::vector<float> y0 = testing::RandomNormal(n, 1.0f, rng);
    std::vector<float> ref = y0;
    AddToRef(ref.data(), x.data(), n);
    testing::ForEachHwyTarget([&] {
      std::vector<float> out = y0;
      AddTo(out.data(), x.data(), n);
      ASSERT_EQ(out, ref) << "n " << n;
    });
  }
}

// Bound: the reference rounds a x and the sum (u |a x| + u |y'|), the fused version
// only the sum (u |y'|); |y'| <= |y| + |a x|: within 3 u (|y| + |a x|).
TEST(Vec, ScaleAddToMatchesReference) {
  std::mt19937 rng(kF32Seed + 1);
  for (size_t n : testing::kEdgeSizes) {
    const std::vector<float> x = testing::RandomNormal(n, 1.0f, rng);
    const std::vector<float> y0 = testing::RandomNormal(n, 1.0f, rng);
    const float a = 0.37f;
    std::vector<float> ref = y0;
    ScaleAddToRef(ref.data(), a, x.data(), n);
    testing::ForEachHwyTarget([&] {
      std::vector<float> out = y0;
      ScaleAddTo(out.data(), a, x.data(), n);
      for (size_t i = 0; i < n; ++i) {
        const double b = 3 * kU * (std::fabs(y0[i]) + std::fabs(a * x[i]));
        ASSERT_NEAR(out[i], ref[i], b) << "n " << n << " i " << i;
      }
    });
  }
}

}  // namespace
}  // namespace cpubrrr
