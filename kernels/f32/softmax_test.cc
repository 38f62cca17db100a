// Softmax / SoftmaxWithSink (Highway, every target) against the scalar reference.
#include "kernels/f32/softmax.h"

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

// Relative bound per output. Each exponential: glibc expf and Highway's Exp are within
// 1 ulp (2 u relative) of the true value: 4 u apart. The reference's double sum is
// exact to float precision; the Highway sum flushes at most 64 vectors from 2 float
// accumulators (32 additions each), 1 to combine and log2(16) in the lane reduction:
// gamma_37, plus the 4 u the summands already carry. Reciprocal and product round the
// same way on both sides (up to 2 u from the differing inputs).
const double kRelBound = 4 * kU + 4 * kU + Gamma(37) + 2 * kU;
// Outputs below the float normal range lose relative precision in both exponentials.
constexpr double kAbsBound = 0x1p-120;

void ExpectClose(const std::vector<float>& out, const std::vector<float>& ref,
                 const char* what) {
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_NEAR(out[i], ref[i], kRelBound * std::fabs(ref[i]) + kAbsBound)
        << what << " n " << out.size() << " i " << i << " seed " << kF32Seed;
  }
}

TEST(Softmax, MatchesReferenceOnEdgeSizes) {
  std::mt19937 rng(kF32Seed);
  for (size_t n : testing::kEdgeSizes) {
    const std::vector<float> x = testing::RandomNormal(n, 4.0f, rng);
    std::vector<float> ref = x;
    SoftmaxRef(ref.data(), n);
    testing::ForEachHwyTarget([&] {
      std::vector<float> out = x;
      Softmax(out.data(), n);
      ExpectClose(out, ref, "plain");
    });
  }
}

TEST(Softmax, SinkMatchesReference) {
  std::mt19937 rng(kF32Seed + 1);
  for (size_t n : testing::kEdgeSizes) {
    const std::vector<float> x = testing::RandomNormal(n, 4.0f, rng);
    for (float sink : {-30.0f, 0.5f, 40.0f}) {  // below, among and above the logits
      std::vector<float> ref = x;
      SoftmaxWithSinkRef(ref.data(), n, sink);
      testing::ForEachHwyTarget([&] {
        std::vector<float> out = x;
        SoftmaxWithSink(out.data(), n, sink);
        ExpectClose(out, ref, "sink");
      });
    }
  }
}

TEST(Softmax, VocabularySizedRowWithMaskedEntries) {
  // gpt-oss vocabulary; every 7th logit masked to -inf as a sampler filter would.
  std::mt19937 rng(kF32Seed + 2);
  std::vector<float> x = testing::RandomNormal(201088, 8.0f, rng);
  for (size_t i = 0; i < x.size(); i += 7) x[i] = -INFINITY;
  std::vector<float> ref = x;
  SoftmaxRef(ref.data(), ref.size());
  double total = 0.0;
  for (float p : ref) total += p;
  EXPECT_NEAR(total, 1.0, 1e-5);
  testing::ForEachHwyTarget([&] {
    std::vector<float> out = x;
    Softmax(out.data(), out.size());
    ExpectClose(out, ref, "vocab");
    for (size_t i = 0; i < x.size(); i += 7) ASSERT_EQ(out[i], 0.0f) << i;
  });
}

TEST(Softmax, SinkTakesItsShareOfTheMass) {
  // Two equal logits and a sink of the same value: each output is exactly 1/3 of the
  // mass in exact arithmetic, and 1/3 rounded in both implementations.
  for (bool hwy : {false, true}) {
    std::vector<float> x = {2.0f, 2.0f};
    (hwy ? SoftmaxWithSink : SoftmaxWithSinkRef)(x.data(), 2, 2.0f);
    EXPECT_FLOAT_EQ(x[0], 1.0f / 3);
    EXPECT_FLOAT_EQ(x[1], 1.0f / 3);
  }
}

}  // namespace
}  // namespace cpubrrr
