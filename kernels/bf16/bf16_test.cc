// Every bf16-weight variant against bf16_ref: gemv, gemm and the row fetch, every Highway target.
#include "kernels/bf16/bf16.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/f32/test_util.h"
#include "quant/bf16.h"

namespace cpubrrr {
namespace {

using testing::Gamma;
using testing::kF32Seed;

class Bf16Test : public ::testing::TestWithParam<Bf16Kernels> {
 protected:
  void SetUp() override {
    if (!HasFeatures(DetectCpuFeatures(), GetParam().required)) GTEST_SKIP() << "CPU lacks it";
  }
};

std::vector<uint16_t> RandomWeights(size_t n, std::mt19937& rng) {
  std::vector<uint16_t> w;
  for (float v : testing::RandomNormal(n, 0.05f, rng)) w.push_back(Fp32ToBf16(v));
  return w;
}

// Bound on |variant - ref| for one output: the reference's double sum of exact products
// is exact to float precision; a float variant sums in 4 vector accumulators of L lanes
// (L = 1 on the SCALAR target, the worst case): at most n / 4 fused steps per lane, 3 to
// combine, log2(16) to reduce, up to 15 tail steps: gamma_{n/4 + 22} sum |w_i x_i|.
double Bound(const uint16_t* row, const float* x, size_t n) {
  double mag = 0;
  for (size_t i = 0; i < n; ++i) mag += std::fabs(Bf16ToFp32(row[i]) * x[i]);
  return Gamma(n / 4.0 + 22) * mag;
}

constexpr size_t kCols[] = {1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 2880};

TEST_P(Bf16Test, GemvMatchesReference) {
  std::mt19937 rng(kF32Seed);
  for (size_t n : kCols) {
    const size_t rows = 7, stride = n + 9;
    const std::vector<uint16_t> w = RandomWeights(rows * stride, rng);
    const std::vector<float> x = testing::RandomNormal(n, 1.0f, rng);
    std::vector<float> ref(rows);
    kBf16KernelsRef.gemv(w.data(), stride, rows, x.data(), n, ref.data());
    testing::ForEachHwyTarget([&] {
      std::vector<float> y(rows, NAN);
      GetParam().gemv(w.data(), stride, rows, x.data(), n, y.data());
      for (size_t r = 0; r < rows; ++r) {
        ASSERT_NEAR(y[r], ref[r], Bound(&w[r * stride], x.data(), n))
            << "n " << n << " row " << r << " seed " << kF32Seed;
      }
    });
  }
}

TEST_P(Bf16Test, GemmEqualsGemvPerToken) {
  std::mt19937 rng(kF32Seed + 1);
  for (size_t n : {5, 64, 129, 2880}) {
    for (size_t n_tokens : {1, 2, 3, 4, 5}) {
      const size_t rows = 6, stride = n + 1, x_stride = n + 2, y_stride = rows + 3;
      const std::vector<uint16_t> w = RandomWeights(rows * stride, rng);
      const std::vector<float> x = testing::RandomNormal(n_tokens * x_stride, 1.0f, rng);
      testing::ForEachHwyTarget([&] {
        std::vector<float> y(n_tokens * y_stride, -1.0f), one(rows);
        GetParam().gemm(w.data(), stride, rows, x.data(), x_stride, n_tokens, n, y.data(),
                        y_stride);
        for (size_t t = 0; t < n_tokens; ++t) {
          GetParam().gemv(w.data(), stride, rows, x.data() + t * x_stride, n, one.data());
          for (size_t r = 0; r < rows; ++r) {
            ASSERT_EQ(y[t * y_stride + r], one[r]) << "n " << n << " token " << t << " row " << r;
          }
          for (size_t r = rows; r < y_stride; ++r) ASSERT_EQ(y[t * y_stride + r], -1.0f);
        }
      });
    }
  }
}

TEST_P(Bf16Test, RowToF32IsExact) {
  std::mt19937 rng(kF32Seed + 2);
  std::vector<uint16_t> row = RandomWeights(2880 + 3, rng);
  for (uint16_t s : {0x7F7F /* largest finite */, 0x0001 /* subnormal */, 0x8000 /* -0 */, 0x3F80 /* 1 */}) row.push_back(s);
  std::vector<float> out(row.size());
  testing::ForEachHwyTarget([&] {
    GetParam().row_to_f32(row.data(), row.size(), out.data());
    for (size_t i = 0; i < row.size(); ++i) ASSERT_EQ(out[i], Bf16ToFp32(row[i])) << i;
  });
}

TEST(Bf16Registry, BestIsTheFirstSupportedVariant) {
  ASSERT_FALSE(AllBf16Variants().empty());
  EXPECT_STREQ(BestBf16Kernels().name, AllBf16Variants().front().name);
  EXPECT_STREQ(AllBf16Variants().back().name, "ref");
}

INSTANTIATE_TEST_SUITE_P(Variants, Bf16Test, ::testing::ValuesIn(AllBf16Variants()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cpubrrr
