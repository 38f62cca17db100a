// Checks the MXFP4 x Q8_0 and Q8_0 x Q8_0 oracles against llama.cpp: its dequantizers
// (libggml-base type traits) followed by a double-precision dot.
#include <cmath>
#include <random>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/mxfp4/mxfp4_kernels.h"
#include "kernels/q8_0/q8_0_kernels.h"

namespace cpubrrr {
namespace {

using testing::kKernelSeed;

constexpr size_t kRows = 64;
constexpr size_t kBlocks = 90;  // gpt-oss width 2880

// Returns n_blocks Q8_0 activation blocks from the quantizer applied to normal floats with
// a random power-of-two scale per block.
std::vector<BlockQ8_0> Activations(size_t n_blocks, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> pow2(-8, 8);
  std::vector<float> xf(n_blocks * 32);
  for (size_t i = 0; i < xf.size(); i += 32) {
    const float s = std::ldexp(1.0f, pow2(rng));
    for (size_t j = i; j < i + 32; ++j) xf[j] = normal(rng) * s;
  }
  std::vector<BlockQ8_0> x(n_blocks);
  QuantizeRowQ8_0(xf.data(), x.data(), static_cast<int64_t>(xf.size()));
  return x;
}

// Returns the exact dot (double; every dequantized value and product is exact, and the
// double sum's rounding, below 2^-53 * A, is negligible against the float bound) and, in
// abs_sum, sum |w_i x_i|: A of DotErrorBound.
double DotDouble(const float* w, const float* x, size_t n, double* abs_sum) {
  double s = 0.0, a = 0.0;
  for (size_t i = 0; i < n; ++i) {
    s += double{w[i]} * x[i];
    a += std::fabs(double{w[i]} * x[i]);
  }
  *abs_sum = a;
  return s;
}

// The oracle's float steps are each within gamma_{n_blocks + 2} * A of the exact dot;
// DotErrorBound (twice a larger gamma) covers that with room to spare.
TEST(Mxfp4RefVsGgml, AgreesWithDequantizedDoubleDot) {
  const auto* mx = ggml_get_type_traits(GGML_TYPE_MXFP4);
  const auto* q8 = ggml_get_type_traits(GGML_TYPE_Q8_0);
  ASSERT_NE(mx->to_float, nullptr);
  ASSERT_EQ(ggml_type_size(GGML_TYPE_MXFP4), sizeof(BlockMxfp4));
  std::mt19937 rng(kKernelSeed);
  std::uniform_int_distribution<int> byte(0, 255), e(100, 150);
  std::vector<BlockMxfp4> w(kRows * kBlocks);
  for (BlockMxfp4& b : w) {
    b.e = static_cast<uint8_t>(e(rng));
    for (uint8_t& q : b.qs) q = static_cast<uint8_t>(byte(rng));
  }
  const auto x = Activations(kBlocks, rng);
  std::vector<float> wf(w.size() * 32), xf(kBlocks * 32), y(kRows);
  mx->to_float(w.data(), wf.data(), static_cast<int64_t>(wf.size()));
  q8->to_float(x.data(), xf.data(), static_cast<int64_t>(xf.size()));
  Mxfp4GemvRef(w.data(), kBlocks, kRows, x.data(), kBlocks, y.data());
  for (size_t r = 0; r < kRows; ++r) {
    double a = 0.0;
    const double want = DotDouble(wf.data() + r * kBlocks * 32, xf.data(), kBlocks * 32, &a);
    EXPECT_LE(std::fabs(y[r] - want), testing::DotErrorBound(a, kBlocks))
        << "row " << r << ": " << y[r] << " vs " << want << ", seed " << kKernelSeed;
    // A doubled scale (2^(e-127) with the doubled table) would miss by |want|.
    EXPECT_LT(std::fabs(y[r] - want), 0.5 * std::fabs(want) + 1e-30) << "row " << r;
  }
}

TEST(Q8_0RefVsGgml, AgreesWithDequantizedDoubleDot) {
  const auto* q8 = ggml_get_type_traits(GGML_TYPE_Q8_0);
  std::mt19937 rng(kKernelSeed + 1);
  std::uniform_int_distribution<int> q(-128, 127), dbits(0x0400, 0x4000);
  std::vector<BlockQ8_0> w(kRows * kBlocks);
  for (BlockQ8_0& b : w) {
    b.d = static_cast<uint16_t>(dbits(rng) | (rng() & 0x8000));
    for (int8_t& v : b.qs) v = static_cast<int8_t>(q(rng));
  }
  const auto x = Activations(kBlocks, rng);
  std::vector<float> wf(w.size() * 32), xf(kBlocks * 32), y(kRows);
  q8->to_float(w.data(), wf.data(), static_cast<int64_t>(wf.size()));
  q8->to_float(x.data(), xf.data(), static_cast<int64_t>(xf.size()));
  Q8_0GemvRef(w.data(), kBlocks, kRows, x.data(), kBlocks, y.data());
  for (size_t r = 0; r < kRows; ++r) {
    double a = 0.0;
    const double want = DotDouble(wf.data() + r * kBlocks * 32, xf.data(), kBlocks * 32, &a);
    EXPECT_LE(std::fabs(y[r] - want), testing::DotErrorBound(a, kBlocks))
        << "row " << r << ": " << y[r] << " vs " << want << ", seed " << kKernelSeed;
  }
}

}  // namespace
}  // namespace cpubrrr
