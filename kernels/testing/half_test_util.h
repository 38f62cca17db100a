// Test fixture shared by the bf16 and f16 weight kernels: every variant against the
// format's reference on every Highway target (gemv, gemm, row fetch).
#ifndef CPUBRRR_KERNELS_TESTING_HALF_TEST_UTIL_H_
#define CPUBRRR_KERNELS_TESTING_HALF_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/variant_test_util.h"
#include "kernels/f32/test_util.h"

namespace cpubrrr::testing {

// Parameterized over a half format's variants. `Format` provides Kernels (the variant
// table's entry type: name, required, gemv, gemm, row_to_f32), Ref() (the reference
// variant), FromFloat and ToFloat (the format's conversions).
template <typename Format>
class HalfWeightsTest : public ::testing::TestWithParam<typename Format::Kernels> {
 protected:
  void SetUp() override { SkipUnlessCpuRuns(this->GetParam()); }

  static std::vector<uint16_t> RandomWeights(size_t n, std::mt19937& rng) {
    std::vector<uint16_t> w;
    for (float v : RandomNormal(n, 0.05f, rng)) w.push_back(Format::FromFloat(v));
    return w;
  }

  // Bound on |variant - ref| for one output: the reference's double sum of exact products
  // is exact to float precision; a float variant sums in 4 vector accumulators of L lanes
  // (L = 1 on the SCALAR target, the worst case): at most n / 4 fused steps per lane, 3 to
  // combine, log2(16) to reduce, up to 15 tail steps: gamma_{n/4 + 22} sum |w_i x_i|.
  static double Bound(const uint16_t* row, const float* x, size_t n) {
    double mag = 0;
    for (size_t i = 0; i < n; ++i) mag += std::fabs(Format::ToFloat(row[i]) * x[i]);
    return Gamma(n / 4.0 + 22) * mag;
  }

  void CheckGemvMatchesReference() {
    std::mt19937 rng(kF32Seed);
    for (size_t n : {1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 2880}) {
      const size_t rows = 7, stride = n + 9;
      const std::vector<uint16_t> w = RandomWeights(rows * stride, rng);
      const std::vector<float> x = RandomNormal(n, 1.0f, rng);
      std::vector<float> ref(rows);
      Format::Ref().gemv(w.data(), stride, rows, x.data(), n, ref.data());
      ForEachHwyTarget([&] {
        std::vector<float> y(rows, NAN);
        this->GetParam().gemv(w.data(), stride, rows, x.data(), n, y.data());
        for (size_t r = 0; r < rows; ++r) {
          ASSERT_NEAR(y[r], ref[r], Bound(&w[r * stride], x.data(), n))
              << "n " << n << " row " << r << " seed " << kF32Seed;
        }
      });
    }
  }

  void CheckGemmEqualsGemvPerToken() {
    std::mt19937 rng(kF32Seed + 1);
    for (size_t n : {5, 64, 129, 2880}) {
      for (size_t n_tokens : {1, 2, 3, 4, 5}) {
        const size_t rows = 6, stride = n + 1, x_stride = n + 2, y_stride = rows + 3;
        const std::vector<uint16_t> w = RandomWeights(rows * stride, rng);
        const std::vector<float> x = RandomNormal(n_tokens * x_stride, 1.0f, rng);
        ForEachHwyTarget([&] {
          const auto& k = this->GetParam();
          std::vector<float> y(n_tokens * y_stride, -1.0f), one(rows);
          k.gemm(w.data(), stride, rows, x.data(), x_stride, n_tokens, n, y.data(), y_stride);
          for (size_t t = 0; t < n_tokens; ++t) {
            k.gemv(w.data(), stride, rows, x.data() + t * x_stride, n, one.data());
            for (size_t r = 0; r < rows; ++r) {
              ASSERT_EQ(y[t * y_stride + r], one[r]) << "n " << n << " token " << t << " row " << r;
            }
            for (size_t r = rows; r < y_stride; ++r) ASSERT_EQ(y[t * y_stride + r], -1.0f);
          }
        });
      }
    }
  }

  // Random values plus `specials` (bit patterns such as the largest finite value, the
  // smallest subnormal, -0 and 1) convert exactly.
  void CheckRowToF32IsExact(const std::vector<uint16_t>& specials) {
    std::mt19937 rng(kF32Seed + 2);
    std::vector<uint16_t> row = RandomWeights(2880 + 3, rng);
    row.insert(row.end(), specials.begin(), specials.end());
    std::vector<float> out(row.size());
    ForEachHwyTarget([&] {
      this->GetParam().row_to_f32(row.data(), row.size(), out.data());
      for (size_t i = 0; i < row.size(); ++i) ASSERT_EQ(out[i], Format::ToFloat(row[i])) << i;
    });
  }
};

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_TESTING_HALF_TEST_UTIL_H_
