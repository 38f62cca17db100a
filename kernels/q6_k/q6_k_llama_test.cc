// Checks the Q6_K oracle against llama.cpp's dequantizers and a double-precision dot product.
#include <cmath>
#include <random>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "kernels/q6_k/q6_k_ref.h"
#include "quant/fp16.h"
#include "quant/q6_k.h"
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

// Returns quant i (0..63) of block b, per the layout in quant/q6_k.h.
int Quant(const BlockQ6K& b, int i) {
  const int h = i / 128, l = i % 32, k = (i % 128) / 32;
  const uint8_t ql = b.ql[64 * h + l + 32 * (k % 2)];
  const int low = k < 2 ? ql & 0xF : ql >> 4;
  return low | (((b.qh[32 * h + l] >> (2 * k)) & 3) << 4);
}

// With u = 2^-24, the oracle's result differs from the exact sum over blocks of
// dx * d * isum by at most (n_blocks + 3) * u * B: per block the int -> float conversion
// and the two products round once each, and the running sum adds at most n_blocks * u * B,
// where B = sum over elements of |dx * q8| * |d * scale * (q - 32)|. llama.cpp's
// dequantized weights round d * scale and the product with q - 32 (2u), its activations
// d * q8 (u); the double dot adds nothing at this scale. Total: (n_blocks + 6) * u * B.
double ErrorBound(const std::vector<BlockQ6K>& w, const std::vector<BlockQ8K>& x, size_t n_blocks) {
  double b_sum = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    const double d = Fp16ToFp32(w[b].d);
    for (int i = 0; i < kQ6KBlockSize; ++i) {
      b_sum += std::fabs(x[b].d * x[b].qs[i]) * std::fabs(d * w[b].scales[i / 16] * (Quant(w[b], i) - 32));
    }
  }
  return (n_blocks + 6) * std::ldexp(1.0, -24) * b_sum;
}

TEST(Q6KVsLlama, OracleMatchesDequantizedDoubleDot) {
  std::mt19937 rng(kSeed);
  const auto to_float = ggml_get_type_traits(GGML_TYPE_Q6_K)->to_float;
  for (size_t n_blocks : {1, 8, 24}) {
    for (testing::Dist dist : testing::kAllDists) {
      constexpr size_t kRows = 12;
      const size_t n = n_blocks * kQ6KBlockSize;
      const std::vector<float> wf = testing::RandomFloats(dist, kRows * n, kQ6KBlockSize, rng);
      std::vector<BlockQ6K> w(kRows * n_blocks);
      QuantizeRowQ6K(wf.data(), w.data(), static_cast<int64_t>(wf.size()));
      const std::vector<float> xf = testing::RandomFloats(testing::Dist::kNormal, n, kQ8KBlockSize, rng);
      std::vector<BlockQ8K> x(n_blocks);
      quantize_row_q8_K_ref(xf.data(), x.data(), static_cast<int64_t>(n));
      std::vector<float> xd(n), wd(n), y(kRows);
      dequantize_row_q8_K(x.data(), xd.data(), static_cast<int64_t>(n));
      Q6KGemvRef(w.data(), n_blocks, kRows, x.data(), n_blocks, y.data());
      for (size_t r = 0; r < kRows; ++r) {
        to_float(w.data() + r * n_blocks, wd.data(), static_cast<int64_t>(n));
        double exact = 0;
        for (size_t i = 0; i < n; ++i) exact += static_cast<double>(wd[i]) * xd[i];
        const std::vector<BlockQ6K> row(w.begin() + r * n_blocks, w.begin() + (r + 1) * n_blocks);
        EXPECT_NEAR(y[r], exact, ErrorBound(row, x, n_blocks))
            << "seed " << kSeed << ", distribution " << testing::DistName(dist) << ", n_blocks "
            << n_blocks << ", row " << r;
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
