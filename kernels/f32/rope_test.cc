// RoPE: tables against a double-precision evaluation of MODEL_SPEC.md's formulas, and
// RopeNeox (Highway, every target) against RopeNeoxRef.
#include "kernels/f32/rope.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/f32/rope_table.h"
#include "kernels/f32/test_util.h"

namespace cpubrrr {
namespace {

using testing::kF32Seed;
using testing::kU;

constexpr int64_t kPositions[] = {0, 1, 2, 7, 100, 127, 128, 4095, 4096, 10000, 65535, 131071};

// gpt-oss: head_dim 64, base 150000, YaRN factor 32 over an original context of 4096,
// beta_fast 32, beta_slow 1.
RopeParams GptOss() { return YarnRopeParams(64, 150000.0f, 32.0f, 4096, 32.0f, 1.0f, 1.0f); }

// Returns the YaRN angle of pair i at `pos` in double, written from MODEL_SPEC.md
// section 2 and independent of rope_table.cc: corr(b) = hd ln(ctx / (2 pi b)) /
// (2 ln base), low = floor(corr(beta_fast)), high = ceil(corr(beta_slow)),
// th_ex = pos base^(-2i/hd), th_in = th_ex / factor, mix = 1 - clamp((i - low) /
// max(high - low, 0.001), 0, 1), th = th_in (1 - mix) + th_ex mix.
double YarnAngle(int hd, double base, double factor, double ctx, double beta_fast,
                 double beta_slow, int64_t pos, int i) {
  auto corr = [&](double b) {
    return hd * std::log(ctx / (2 * std::numbers::pi * b)) / (2 * std::log(base));
  };
  const double low = std::floor(corr(beta_fast)), high = std::ceil(corr(beta_slow));
  const double th_ex = pos * std::pow(base, -2.0 * i / hd);
  const double th_in = th_ex / factor;
  const double mix = 1 - std::clamp((i - low) / std::max(high - low, 0.001), 0.0, 1.0);
  return th_in * (1 - mix) + th_ex * mix;
}

// Bound on |table - exact| for pair i. The float angle is a running product: the step
// base^(-2/hd) from powf is within 1 ulp (2 u), and i roundings of the product, so the
// extrapolated angle carries (2 + 1) i u relative error. The blend adds 6 u of the
// angle (1 - mix, two products, the sum, and the ramp's own division and subtraction).
// cosf / sinf are within 1 ulp and the magnitude product and magnitude (logf, two
// products, a reciprocal) within 8 u of the result's scale.
double TableBound(int i, double theta_ex, double magnitude) {
  return magnitude * ((3.0 * i + 6) * kU * theta_ex + 8 * kU);
}

TEST(RopeTable, GptOssCorrectionDimsMatchTheFormula) {
  const RopeParams p = GptOss();
  // corr(32) = 8.09..., corr(1) = 17.4...: far from integers, so float and double agree.
  EXPECT_EQ(p.corr_low, 8.0f);
  EXPECT_EQ(p.corr_high, 18.0f);
  EXPECT_EQ(p.freq_scale, 1.0f / 32);
  EXPECT_EQ(p.ext_factor, 1.0f);
  EXPECT_NEAR(p.attn_factor, 1.0f, 2 * kU);
}

TEST(RopeTable, GptOssMatchesDoublePrecisionYarn) {
  const RopeParams p = GptOss();
  const double mscale = 1 + 0.1 * std::log(32.0);
  std::vector<float> c(32), s(32);
  for (int64_t pos : kPositions) {
    RopeTable(p, pos, c.data(), s.data());
    for (int i = 0; i < 32; ++i) {
      const double th = YarnAngle(64, 150000, 32, 4096, 32, 1, pos, i);
      const double th_ex = pos * std::pow(150000.0, -2.0 * i / 64);
      const double bound = TableBound(i, th_ex, mscale);
      ASSERT_NEAR(c[i], mscale * std::cos(th), bound) << "pos " << pos << " pair " << i;
      ASSERT_NEAR(s[i], mscale * std::sin(th), bound) << "pos " << pos << " pair " << i;
    }
  }
}

TEST(RopeTable, PlainRopeMatchesDoublePrecision) {
  // Qwen3: head_dim 128, base 1e6, no scaling, magnitude 1.
  const RopeParams p = PlainRopeParams(128, 1e6f);
  std::vector<float> c(64), s(64);
  for (int64_t pos : kPositions) {
    RopeTable(p, pos, c.data(), s.data());
    for (int i = 0; i < 64; ++i) {
      const double th = pos * std::pow(1e6, -2.0 * i / 128);
      const double bound = TableBound(i, th, 1.0);
      ASSERT_NEAR(c[i], std::cos(th), bound) << "pos " << pos << " pair " << i;
      ASSERT_NEAR(s[i], std::sin(th), bound) << "pos " << pos << " pair " << i;
    }
  }
}

TEST(RopeTable, PositionZeroIsTheMagnitudeOnCosine) {
  const RopeParams p = GptOss();
  const float magnitude = p.attn_factor * (1.0f + 0.1f * std::log(32.0f));
  std::vector<float> c(32), s(32);
  RopeTable(p, 0, c.data(), s.data());
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(c[i], magnitude) << i;
    EXPECT_EQ(s[i], 0.0f) << i;
  }
}

// Bound on |RopeNeox - RopeNeoxRef| per output: the reference rounds two products and
// the difference (within u (|x0 c| + |x1 s|) + u |y|), the fused version rounds one
// product and the fused sum; together within 4 u (|x0 c| + |x1 s|).
TEST(RopeNeox, MatchesReferenceOnHeadSizesAndStrides) {
  std::mt19937 rng(kF32Seed);
  const RopeParams gpt = GptOss();
  for (size_t head_dim : {2, 4, 6, 8, 16, 30, 32, 34, 64, 128, 256}) {
    for (size_t extra : {0, 3}) {
      const size_t n_heads = 5, stride = head_dim + extra, half = head_dim / 2;
      const RopeParams p = head_dim == 64 ? gpt : PlainRopeParams(head_dim, 1e6f);
      std::vector<float> c(half), s(half);
      RopeTable(p, 12345, c.data(), s.data());
      const std::vector<float> x = testing::RandomNormal(n_heads * stride, 3.0f, rng);
      std::vector<float> ref = x;
      RopeNeoxRef(ref.data(), n_heads, stride, head_dim, c.data(), s.data());
      testing::ForEachHwyTarget([&] {
        std::vector<float> out = x;
        RopeNeox(out.data(), n_heads, stride, head_dim, c.data(), s.data());
        for (size_t h = 0; h < n_heads; ++h) {
          const float* xh = x.data() + h * stride;
          for (size_t j = 0; j < half; ++j) {
            const double mag = std::fabs(xh[j] * c[j]) + std::fabs(xh[j + half] * s[j]) +
                               std::fabs(xh[j] * s[j]) + std::fabs(xh[j + half] * c[j]);
            for (size_t at : {j, j + half}) {
              ASSERT_NEAR(out[h * stride + at], ref[h * stride + at], 4 * kU * mag)
                  << "head_dim " << head_dim << " head " << h << " dim " << at;
            }
          }
          for (size_t k = head_dim; k < stride; ++k) {  // padding untouched
            ASSERT_EQ(out[h * stride + k], x[h * stride + k]);
          }
        }
      });
    }
  }
}

}  // namespace
}  // namespace cpubrrr
