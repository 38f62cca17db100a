// Test fixture shared by the MXFP4 and Q8_0 kernel tests (32-value weight blocks x Q8_0
// activations): a variant's gemv and gemm against the scalar oracle.
#ifndef CPUBRRR_KERNELS_TESTING_BLOCK32_TEST_UTIL_H_
#define CPUBRRR_KERNELS_TESTING_BLOCK32_TEST_UTIL_H_

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/testing/variant_test_util.h"
#include "quant/q8_0.h"
#include "quant/test_util.h"

namespace cpubrrr::testing {

// One problem: rows of n_blocks blocks, row_stride blocks apart, against n_tokens tokens.
struct DotCase {
  size_t rows, row_stride, n_blocks, n_tokens;
};

inline std::string Describe(const DotCase& c) {
  return "rows " + std::to_string(c.rows) + ", row_stride " + std::to_string(c.row_stride) +
         ", n_blocks " + std::to_string(c.n_blocks) + ", n_tokens " +
         std::to_string(c.n_tokens) + ", seed " + std::to_string(kKernelSeed);
}

// Parameterized over a format's variants. `Format` provides Kernels (the variant table's
// entry type: gemv, gemm, oracle_gemm_from, name, required), Block, the oracle GemmRef and
// AbsSum(w, x, n_blocks, &min_unit): the A of DotErrorBound for one row and token and,
// through min_unit, the smallest power of two dividing every block term.
template <typename Format>
class Block32VariantTest : public ::testing::TestWithParam<typename Format::Kernels> {
 protected:
  using Block = typename Format::Block;

  void SetUp() override { SkipUnlessCpuRuns(this->GetParam()); }

  // Runs gemv (once per token) and gemm of the variant and the oracle on w and x
  // (n_tokens activation rows, x_stride apart) and compares: bit for bit when `exact`,
  // which the check first proves (every term a multiple of min_unit and every partial sum
  // below 2^24 units), else within DotErrorBound, the gemm bit for bit with the oracle
  // where the variant says so and otherwise with the gemv.
  void Compare(const DotCase& c, const std::vector<Block>& w, const std::vector<BlockQ8_0>& x,
               size_t x_stride, bool exact) {
    const auto& k = this->GetParam();
    const size_t y_stride = c.rows + 2;
    const float kCanary = -1234.5f;
    std::vector<float> want(c.n_tokens * y_stride, kCanary), got_gemm(want), got_gemv(want);
    Format::GemmRef(w.data(), c.row_stride, c.rows, x.data(), x_stride, c.n_tokens, c.n_blocks,
                    want.data(), y_stride);
    k.gemm(w.data(), c.row_stride, c.rows, x.data(), x_stride, c.n_tokens, c.n_blocks,
           got_gemm.data(), y_stride);
    for (size_t t = 0; t < c.n_tokens; ++t) {
      k.gemv(w.data(), c.row_stride, c.rows, x.data() + t * x_stride, c.n_blocks,
             got_gemv.data() + t * y_stride);
    }
    for (size_t t = 0; t < c.n_tokens; ++t) {
      for (size_t r = 0; r < y_stride; ++r) {
        const size_t i = t * y_stride + r;
        // Where, for failure messages (gtest builds them only on failure).
        auto at = [&] { return " at t " + std::to_string(t) + " r " + std::to_string(r) + "; " + Describe(c); };
        if (r >= c.rows) {
          ASSERT_EQ(got_gemm[i], kCanary) << "gemm wrote past rows; " << Describe(c);
          ASSERT_EQ(got_gemv[i], kCanary) << "gemv wrote past rows; " << Describe(c);
          continue;
        }
        double unit = 0;
        const double a = Format::AbsSum(w.data() + r * c.row_stride, x.data() + t * x_stride,
                                        c.n_blocks, &unit);
        if (exact) {
          ASSERT_LT(a, std::ldexp(unit, 24)) << "inputs not exact; " << Describe(c);
          ASSERT_EQ(FloatBitsDiff(&got_gemm[i], &want[i], 1), "") << "gemm" << at();
          ASSERT_EQ(FloatBitsDiff(&got_gemv[i], &want[i], 1), "") << "gemv" << at();
          continue;
        }
        if (c.n_tokens >= k.oracle_gemm_from) {
          ASSERT_EQ(FloatBitsDiff(&got_gemm[i], &want[i], 1), "") << "gemm vs oracle" << at();
        } else {
          // A token's result must not depend on how many tokens share the call.
          ASSERT_EQ(FloatBitsDiff(&got_gemm[i], &got_gemv[i], 1), "") << "gemm vs gemv" << at();
        }
        const double bound = DotErrorBound(a, c.n_blocks);
        ASSERT_LE(std::fabs(double{got_gemm[i]} - want[i]), bound) << "gemm" << at();
        ASSERT_LE(std::fabs(double{got_gemv[i]} - want[i]), bound) << "gemv" << at();
      }
    }
  }
};

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_TESTING_BLOCK32_TEST_UTIL_H_
