// SwigluOai / Swiglu (Highway, every target) against the scalar references.
#include "kernels/f32/swiglu.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/f32/test_util.h"

namespace cpubrrr {
namespace {

using testing::kF32Seed;
using testing::kU;

// SwigluOai evaluates the reference's expression with the same expf per lane (ggml's
// scalar loop): the bits must match.
void ExpectSameBits(const std::vector<float>& out, const std::vector<float>& ref,
                    const char* what) {
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(std::memcmp(&out[i], &ref[i], sizeof(float)), 0)
        << what << " n " << out.size() << " i " << i << ": " << out[i] << " vs " << ref[i]
        << " seed " << kF32Seed;
  }
}

// Plain SwiGLU's relative bound: both sides compute the same rounded exponent argument, then differ in
// the exponential (1 ulp each: 4 u), and in 1 + e, the division, the product with g and
// the product with the up term (4 roundings each: 8 u). Where exp(-alpha g) overflows
// float the reference returns exactly 0 and Highway a value below 1e-37.
constexpr double kRelBound = 12 * kU;
constexpr double kAbsBound = 1e-37;

constexpr float kAlpha = 1.702f, kLimit = 7.0f;

void ExpectClose(const std::vector<float>& out, const std::vector<float>& ref,
                 const char* what) {
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_NEAR(out[i], ref[i], kRelBound * std::fabs(ref[i]) + kAbsBound)
        << what << " n " << out.size() << " i " << i << " seed " << kF32Seed;
  }
}

TEST(Swiglu, OaiEqualsReferenceOnEdgeSizes) {
  std::mt19937 rng(kF32Seed);
  for (size_t n : testing::kEdgeSizes) {
    // Wide spread: the clamps at +-7 and the saturated sigmoid both get exercised.
    const std::vector<float> g = testing::RandomNormal(n, 10.0f, rng);
    const std::vector<float> u = testing::RandomNormal(n, 10.0f, rng);
    std::vector<float> ref(n);
    SwigluOaiRef(g.data(), u.data(), n, kAlpha, kLimit, ref.data());
    testing::ForEachHwyTarget([&] {
      std::vector<float> out(n, NAN);
      SwigluOai(g.data(), u.data(), n, kAlpha, kLimit, out.data());
      ExpectSameBits(out, ref, "oai");
    });
  }
}

TEST(Swiglu, PlainMatchesReferenceOnEdgeSizes) {
  std::mt19937 rng(kF32Seed + 1);
  for (size_t n : testing::kEdgeSizes) {
    const std::vector<float> g = testing::RandomNormal(n, 10.0f, rng);
    const std::vector<float> u = testing::RandomNormal(n, 2.0f, rng);
    std::vector<float> ref(n);
    SwigluRef(g.data(), u.data(), n, ref.data());
    testing::ForEachHwyTarget([&] {
      std::vector<float> out(n, NAN);
      Swiglu(g.data(), u.data(), n, out.data());
      ExpectClose(out, ref, "plain");
    });
  }
}

TEST(Swiglu, ExtremeGatesStayFinite) {
  const std::vector<float> g = {-1e30f, -200.0f, -88.0f, -50.0f, 0.0f, 50.0f, 1e30f, 7.0f, 7.5f};
  const std::vector<float> u = {1e30f, -1e30f, 3.0f, -8.0f, 1.0f, 2.0f, -2.0f, 6.0f, 6.0f};
  const size_t n = g.size();
  std::vector<float> ref(n), out(n);
  SwigluOaiRef(g.data(), u.data(), n, kAlpha, kLimit, ref.data());
  SwigluOai(g.data(), u.data(), n, kAlpha, kLimit, out.data());
  ExpectSameBits(out, ref, "oai extremes");
  // g clamped to 7, u clamped to 7: 7 sigmoid(11.914) * 8.
  EXPECT_NEAR(out[6], 7.0 / (1 + std::exp(-1.702 * 7)) * -1.0, 1e-5);
  EXPECT_NEAR(out[8], 7.0 / (1 + std::exp(-1.702 * 7)) * 7.0, 1e-5);
  Swiglu(g.data(), u.data(), 7, out.data());
  SwigluRef(g.data(), u.data(), 7, ref.data());
  out.resize(7);
  ref.resize(7);
  ExpectClose(out, ref, "plain extremes");
}

}  // namespace
}  // namespace cpubrrr
