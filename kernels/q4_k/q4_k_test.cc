// Every Q4_K kernel variant against the scalar oracle over shape and value edges: bit for bit,
// or for variants in ggml's x86 order bit for bit against a scalar model of that order and
// within the derived bound of the oracle.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "kernels/testing/kquant_test_util.h"
#include "kernels/q4_k/q4_k.h"
#include "kernels/q4_k/q4_k_ref.h"
#include "kernels/q4_k/q4_k_test_util.h"
#include "quant/fp16.h"
#include "quant/q4_k.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

// Scalar model of ggml's x86 order (kernels/kquant/ggml_x86_order.h, ggml's
// ggml_vec_dot_q4_K_q8_K on AVX2), written from that description independently of the
// AVX-512 code: eight int32 lanes per block (lane u: values 32c + 4u .. 32c + 4u + 3 of
// every sub-block c), four min lanes, one fused multiply-add per lane and block.
float GgmlOrderDot(const BlockQ4K* w, const BlockQ8K* x, size_t n_blocks) {
  float acc[8] = {}, accm[4] = {};
  for (size_t b = 0; b < n_blocks; ++b) {
    int32_t lanes[8] = {}, mins[4] = {};
    for (int c = 0; c < 8; ++c) {
      uint8_t sc, m;
      GetScaleMinK4(c, w[b].scales, &sc, &m);
      for (int i = 0; i < 32; ++i) {
        const int q = (w[b].qs[32 * (c / 2) + i] >> (4 * (c % 2))) & 0xF;
        lanes[i / 4] += sc * q * x[b].qs[32 * c + i];
      }
      mins[c / 2] += m * (x[b].bsums[2 * c] + x[b].bsums[2 * c + 1]);
    }
    const float d = x[b].d * Fp16ToFp32(w[b].d);
    const float dmin = -x[b].d * Fp16ToFp32(w[b].dmin);
    for (int u = 0; u < 8; ++u) acc[u] = std::fma(d, static_cast<float>(lanes[u]), acc[u]);
    for (int k = 0; k < 4; ++k) accm[k] = std::fma(dmin, static_cast<float>(mins[k]), accm[k]);
  }
  const float lanes =
      ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
  return lanes + ((accm[0] + accm[2]) + (accm[1] + accm[3]));
}

void GgmlOrderGemm(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    for (size_t r = 0; r < rows; ++r) {
      y[t * y_stride + r] = GgmlOrderDot(w + r * row_stride, x + t * x_stride, n_blocks);
    }
  }
}

// The A of DotErrorBound for one row and token: sum over blocks of |x.d| (|d| sum_j sc_j
// sum_i q_i |x_i| + |dmin| sum_j m_j sum_i |x_i|). It bounds |isum| and |msum| per block
// and every lane and min lane of ggml's order, so every partial sum of both computations.
// On any path to a result lie at most n_blocks + 5 roundings (the oracle: an int ->
// float conversion, a product, the difference, the product with x.d, n_blocks additions;
// ggml's order: the scale product, n_blocks fused multiply-adds, 3 + 1 additions of the
// trees; its lanes stay below 2^24, so their conversions are exact), within
// DotErrorBound's n_blocks + 27.
double AbsSum(const BlockQ4K* w, const BlockQ8K* x, size_t n_blocks) {
  double a = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    double isum = 0, msum = 0;
    for (int j = 0; j < 8; ++j) {
      uint8_t sc, m;
      GetScaleMinK4(j, w[b].scales, &sc, &m);
      for (int i = 0; i < 32; ++i) {
        const int q = (w[b].qs[32 * (j / 2) + i] >> (4 * (j % 2))) & 0xF;
        isum += sc * q * std::abs(x[b].qs[32 * j + i]);
        msum += m * std::abs(x[b].qs[32 * j + i]);
      }
    }
    a += std::fabs(x[b].d) *
         (std::fabs(Fp16ToFp32(w[b].d)) * isum + std::fabs(Fp16ToFp32(w[b].dmin)) * msum);
  }
  return a;
}

// The format's pieces for testing::KQuantVariantTest.
struct Q4KFormat {
  using Kernels = Q4KKernels;
  using Block = BlockQ4K;
  static constexpr auto GemvRef = Q4KGemvRef;
  static constexpr auto GemmRef = Q4KGemmRef;
  static constexpr auto GgmlOrderGemm = cpubrrr::GgmlOrderGemm;
  static constexpr auto AbsSum = cpubrrr::AbsSum;
  static constexpr auto RandomWeights = testing::RandomQ4KWeights;
};

class Q4KVariantTest : public testing::KQuantVariantTest<Q4KFormat> {};

TEST_P(Q4KVariantTest, GemvMatchesOracleOverShapes) { CheckGemvShapes(); }
TEST_P(Q4KVariantTest, GemmMatchesOracleOverShapes) { CheckGemmShapes(); }
TEST_P(Q4KVariantTest, GemmMatchesOracleAroundLaneTiles) { CheckGemmAroundLaneTiles(); }
TEST_P(Q4KVariantTest, HandlesZeroBlocks) { CheckZeroBlocks(); }

// Largest integer sums: every scale and min 63, every nibble 15, activations all +127 or
// all -128 (beyond what the quantizer makes). Per block isum = 8*63*32*15*127 and msum =
// 8*63*32*127 fit int32 with room; the float result is checked against exact arithmetic.
TEST_P(Q4KVariantTest, ExtremeValuesDoNotOverflow) {
  constexpr size_t kRows = 9, kBlocks = 3, kTokens = 2;
  const std::vector<BlockQ4K> w(kRows * kBlocks, testing::FullQ4KBlock());
  std::vector<BlockQ8K> x(kTokens * kBlocks);
  for (size_t t = 0; t < kTokens; ++t) {
    const int8_t q = t == 0 ? 127 : -128;
    for (size_t b = 0; b < kBlocks; ++b) {
      BlockQ8K& xb = x[t * kBlocks + b];
      xb.d = 1.0f;
      std::memset(xb.qs, static_cast<uint8_t>(q), sizeof(xb.qs));
      for (int16_t& s : xb.bsums) s = static_cast<int16_t>(16 * q);
    }
  }
  std::vector<float> y(kTokens * kRows);
  GetParam().gemm(w.data(), kBlocks, kRows, x.data(), kBlocks, kTokens, kBlocks, y.data(), kRows);
  for (size_t t = 0; t < kTokens; ++t) {
    const double q = t == 0 ? 127 : -128;
    const double per_block = 8 * 63 * 32 * (15 * q) - 0.5 * 8 * 63 * 32 * q;
    for (size_t r = 0; r < kRows; ++r) EXPECT_EQ(y[t * kRows + r], kBlocks * per_block) << t << " " << r;
  }
  std::vector<float> yv(kRows);
  GetParam().gemv(w.data(), kBlocks, kRows, x.data(), kBlocks, yv.data());
  for (size_t r = 0; r < kRows; ++r) EXPECT_EQ(yv[r], y[r]) << r;
}

// isum above 2^24 from odd pair sums (every weight 63 * 15, activations 127, 126 or -128,
// -127 in turn): exact in int32, while an fp32 running sum over a whole block (the SME
// tile's outer products, were they not split in halves) rounds on the way.
TEST_P(Q4KVariantTest, LargeOddSumsStayExact) {
  constexpr size_t kRows = 9, kBlocks = 2, kTokens = 2;
  const std::vector<BlockQ4K> w(kRows * kBlocks, testing::FullQ4KBlock());
  std::vector<BlockQ8K> x(kTokens * kBlocks);
  for (size_t i = 0; i < x.size(); ++i) {
    const int even = i < kBlocks ? 127 : -128, odd = i < kBlocks ? 126 : -127;
    x[i].d = 1.0f;
    for (int k = 0; k < kQ8KBlockSize; ++k) x[i].qs[k] = static_cast<int8_t>(k % 2 ? odd : even);
    for (int16_t& s : x[i].bsums) s = static_cast<int16_t>(8 * (even + odd));
  }
  EXPECT_EQ(GemvCheck(w, kBlocks, kRows, x, kBlocks), "");
  EXPECT_EQ(GemmCheck(w, kBlocks, kRows, x, kBlocks, kTokens, kBlocks, kRows), "");
}

// The SME variant is the best exactly where the CPU has SME; under qemu
// (CPUBRRR_EXPECT_SME) it must have it.
TEST(Q4KRegistry, SmeIsBestExactlyWhereTheCpuHasIt) {
  const bool has_sme = HasFeatures(DetectCpuFeatures(), kCpuSme);
  if (std::getenv("CPUBRRR_EXPECT_SME") != nullptr) {
    ASSERT_TRUE(has_sme) << "no SME under qemu";
  }
  EXPECT_EQ(std::string(BestQ4KKernels().name) == "sme", has_sme) << BestQ4KKernels().name;
}

TEST(Q4KRegistry, ListsRefLastAndPicksAnAvailableVariant) {
  ASSERT_FALSE(AllQ4KVariants().empty());
  EXPECT_STREQ(AllQ4KVariants().back().name, "ref");
  EXPECT_TRUE(HasFeatures(DetectCpuFeatures(), BestQ4KKernels().required));
}

INSTANTIATE_TEST_SUITE_P(Variants, Q4KVariantTest, ::testing::ValuesIn(AllQ4KVariants()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cpubrrr
