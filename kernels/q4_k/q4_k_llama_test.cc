// Checks the Q4_K oracle against llama.cpp's dequantizers and a double-precision dot product.
#include <cmath>
#include <random>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "kernels/q4_k/q4_k_ref.h"
#include "quant/fp16.h"
#include "quant/q4_k.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

// ggml exports its Q8_K converters but leaves them out of the public headers.
extern "C" {
void quantize_row_q8_K_ref(const float* x, void* y, int64_t k);
void dequantize_row_q8_K(const void* x, float* y, int64_t k);
}

namespace cpubrrr {
namespace {

using testing::kSeed;

// With u = 2^-24, the oracle's result differs from the exact sum over blocks of
// dx * (d * isum - dmin * msum) by at most (n_blocks + 6) * u * B: per block the int ->
// float conversions, the two products, the difference and the product with dx round
// once each (6u, relative to dx * (|d isum| + |dmin msum|) <= that block's share of B), and
// the running sum adds at most n_blocks * u * B. B = sum over elements of
// |dx * q8| * (|d * sc * q| + |dmin * m|). llama.cpp's dequantized weights round
// d * sc, dmin * m, the product with q and the difference (3u of the same terms), its
// activations d * q8 (u); the double dot adds nothing at this scale. Total:
// (n_blocks + 10) * u * B.
double ErrorBound(const std::vector<BlockQ4K>& w, const std::vector<BlockQ8K>& x, size_t n_blocks) {
  double b_sum = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    const double d = Fp16ToFp32(w[b].d), dmin = Fp16ToFp32(w[b].dmin);
    for (int j = 0; j < 8; ++j) {
      uint8_t sc, m;
      GetScaleMinK4(j, w[b].scales, &sc, &m);
      for (int i = 0; i < 32; ++i) {
        const int q = (w[b].qs[32 * (j / 2) + i] >> (4 * (j % 2))) & 0xF;
        b_sum += std::fabs(x[b].d * x[b].qs[32 * j + i]) * (std::fabs(d * sc * q) + std::fabs(dmin * m));
      }
    }
  }
  return (n_blocks + 10) * std::ldexp(1.0, -24) * b_sum;
}

TEST(Q4KVsLlama, OracleMatchesDequantizedDoubleDot) {
  std::mt19937 rng(kSeed);
  const auto to_float = ggml_get_type_traits(GGML_TYPE_Q4_K)->to_float;
  for (size_t n_blocks : {1, 8, 24}) {
    for (testing::Dist dist : testing::kAllDists) {
      constexpr size_t kRows = 12;
      const size_t n = n_blocks * kQ4KBlockSize;
      const std::vector<float> wf = testing::RandomFloats(dist, kRows * n, kQ4KBlockSize, rng);
      std::vector<BlockQ4K> w(kRows * n_blocks);
      QuantizeRowQ4K(wf.data(), w.data(), static_cast<int64_t>(wf.size()));
      const std::vector<float> xf = testing::RandomFloats(testing::Dist::kNormal, n, kQ8KBlockSize, rng);
      std::vector<BlockQ8K> x(n_blocks);
      quantize_row_q8_K_ref(xf.data(), x.data(), static_cast<int64_t>(n));
      std::vector<float> xd(n), wd(n), y(kRows);
      dequantize_row_q8_K(x.data(), xd.data(), static_cast<int64_t>(n));
      Q4KGemvRef(w.data(), n_blocks, kRows, x.data(), n_blocks, y.data());
      for (size_t r = 0; r < kRows; ++r) {
        to_float(w.data() + r * n_blocks, wd.data(), static_cast<int64_t>(n));
        double exact = 0;
        for (size_t i = 0; i < n; ++i) exact += static_cast<double>(wd[i]) * xd[i];
        const std::vector<BlockQ4K> row(w.begin() + r * n_blocks, w.begin() + (r + 1) * n_blocks);
        EXPECT_NEAR(y[r], exact, ErrorBound(row, x, n_blocks))
            << "seed " << kSeed << ", distribution " << testing::DistName(dist) << ", n_blocks "
            << n_blocks << ", row " << r;
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
