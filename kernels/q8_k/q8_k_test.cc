// Every Q8_K quantizer variant against quant's QuantizeRowQ8K, byte for byte (qs, d, bsums).
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "kernels/q8_k/q8_k.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

constexpr int kQK = kQ8KBlockSize;

// The oracle in the void* form EncodeDiff takes.
void Reference(const float* x, void* y, int64_t n) { QuantizeRowQ8K(x, static_cast<BlockQ8K*>(y), n); }

class Q8KQuantizerTest : public ::testing::TestWithParam<Q8KQuantizer> {
 protected:
  void SetUp() override {
    if (!HasFeatures(DetectCpuFeatures(), GetParam().required)) {
      GTEST_SKIP() << GetParam().name << " needs CPU features "
                   << CpuFeatureNames(GetParam().required) << ", this CPU lacks some";
    }
  }
};

TEST_P(Q8KQuantizerTest, MatchesReferenceOnRandomRows) {
  std::mt19937 rng(kSeed);
  for (testing::Dist dist : testing::kAllDists) {
    const std::vector<float> x = testing::RandomFloats(dist, 300 * kQK, kQK, rng);
    EXPECT_EQ(testing::EncodeDiff(GetParam().quantize, Reference, x, kQK), "")
        << "seed " << kSeed << ", distribution " << testing::DistName(dist);
  }
}

TEST_P(Q8KQuantizerTest, MatchesReferenceOnEdgeBlocks) {
  std::vector<float> x;
  auto add_block = [&](auto value_at) {
    for (int i = 0; i < kQK; ++i) x.push_back(value_at(i));
  };
  add_block([](int) { return 0.0f; });
  add_block([](int i) { return i % 2 ? -0.0f : 0.0f; });
  // max = -127 makes the scale exactly 1, so x.5 inputs are exact ties (even wins).
  add_block([](int i) { return i == 0 ? -127.0f : (i % 64 - 32) + 0.5f; });
  add_block([](int i) { return i == 9 ? 127.0f : -((i % 64 - 32) + 0.5f); });
  // Several elements share the largest magnitude with both signs: the first one wins.
  add_block([](int i) { return i % 37 == 5 ? (i % 2 ? 3.0f : -3.0f) : 0.25f * (i % 9); });
  add_block([](int i) { return i == 255 ? -2.0f : 1.0f; });
  // Largest and tiny magnitudes; subnormal maxima overflow -127/max to infinity.
  add_block([](int i) { return (i % 2 ? -1 : 1) * 3.4028235e38f / (1 + i % 7); });
  add_block([](int i) { return std::ldexp(static_cast<float>(i - 128), -140); });
  add_block([](int i) { return i == 200 ? 1e-30f : 0.0f; });
  add_block([](int i) { return i == 17 ? -1e-45f : 0.0f; });
  EXPECT_EQ(testing::EncodeDiff(GetParam().quantize, Reference, x, kQK), "");
}

TEST_P(Q8KQuantizerTest, WritesOnlyTheGivenBlocks) {
  std::mt19937 rng(kSeed);
  const std::vector<float> x = testing::RandomFloats(testing::Dist::kNormal, kQK, kQK, rng);
  std::vector<BlockQ8K> y(2);
  std::memset(y.data(), 0xAA, 2 * sizeof(BlockQ8K));
  GetParam().quantize(x.data(), y.data(), kQK);
  const std::vector<uint8_t> guard(sizeof(BlockQ8K), 0xAA);
  EXPECT_EQ(std::memcmp(&y[1], guard.data(), sizeof(BlockQ8K)), 0);
}

TEST(Q8KRegistry, ListsRefLastAndPicksAnAvailableVariant) {
  ASSERT_FALSE(AllQ8KQuantizers().empty());
  EXPECT_STREQ(AllQ8KQuantizers().back().name, "ref");
  EXPECT_TRUE(HasFeatures(DetectCpuFeatures(), BestQ8KQuantizer().required));
}

INSTANTIATE_TEST_SUITE_P(Variants, Q8KQuantizerTest, ::testing::ValuesIn(AllQ8KQuantizers()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cpubrrr
