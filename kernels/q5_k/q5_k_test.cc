// Every Q5_K kernel variant against the scalar oracle over shape and value edges: bit for bit,
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
#include "kernels/q5_k/q5_k.h"
#include "kernels/q5_k/q5_k_ref.h"
#include "kernels/q5_k/q5_k_test_util.h"
#include "quant/fp16.h"
#include "quant/q5_k.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

// The A of DotErrorBound for one row and token: sum over blocks of |x.d| (|d| sum_j sc_j
// sum_i q_i |x_i| + |dmin| sum_j m_j sum_i |x_i|). It bounds |isum| and |msum| per block
// and every lane and the min sum of ggml's order, so every partial sum of both
// computations. On any path to a result lie at most n_blocks + 5 roundings (the oracle: an
// int -> float conversion, a product, the difference, the product with x.d, n_blocks
// additions; ggml's order: the scale product, n_blocks fused multiply-adds, 3 additions of
// the tree and the final one; its lanes (at most 8 * 63 * 4 * 31 * 128 < 2^24) and min
// sums (at most 8 * 63 * 32 * 128 < 2^24) convert exactly), within DotErrorBound's
// n_blocks + 27.
double AbsSum(const BlockQ5K* w, const BlockQ8K* x, size_t n_blocks) {
  double a = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    double isum = 0, msum = 0;
    for (int j = 0; j < 8; ++j) {
      uint8_t sc, m;
      GetScaleMinK4(j, w[b].scales, &sc, &m);
      for (int i = 0; i < 32; ++i) {
        isum += sc * Q5KQuant(w[b], j, i) * std::abs(x[b].qs[32 * j + i]);
        msum += m * std::abs(x[b].qs[32 * j + i]);
      }
    }
    a += std::fabs(x[b].d) *
         (std::fabs(Fp16ToFp32(w[b].d)) * isum + std::fabs(Fp16ToFp32(w[b].dmin)) * msum);
  }
  return a;
}

// The format's pieces for testing::KQuantVariantTest.
struct Q5KFormat {
  using Kernels = Q5KKernels;
  using Block = BlockQ5K;
  static constexpr auto GemvRef = Q5KGemvRef;
  static constexpr auto GemmRef = Q5KGemmRef;
  static constexpr auto GgmlOrderGemm = testing::GgmlOrderQ5KGemm;
  static constexpr auto AbsSum = cpubrrr::AbsSum;
  static constexpr auto RandomWeights = testing::RandomQ5KWeights;
};

class Q5KVariantTest : public testing::KQuantVariantTest<Q5KFormat> {};

TEST_P(Q5KVariantTest, GemvMatchesOracleOverShapes) { CheckGemvShapes(); }
TEST_P(Q5KVariantTest, GemmMatchesOracleOverShapes) { CheckGemmShapes(); }
TEST_P(Q5KVariantTest, GemmMatchesOracleAroundLaneTiles) { CheckGemmAroundLaneTiles(); }
TEST_P(Q5KVariantTest, HandlesZeroBlocks) { CheckZeroBlocks(); }

// Largest integer sums: every scale and min 63, every quant 31, activations all +127 or
// all -128 (beyond what the quantizer makes), token by token in turn, enough tokens for
// the gemms' lane tiles. Per block isum = 8*63*32*31*127 and msum = 8*63*32*127 fit int32
// with room; the float result is checked against exact arithmetic.
TEST_P(Q5KVariantTest, ExtremeValuesDoNotOverflow) {
  constexpr size_t kRows = 9, kBlocks = 3, kTokens = 5;
  const std::vector<BlockQ5K> w(kRows * kBlocks, testing::FullQ5KBlock());
  std::vector<BlockQ8K> x(kTokens * kBlocks);
  for (size_t t = 0; t < kTokens; ++t) {
    const int8_t q = t % 2 == 0 ? 127 : -128;
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
    const double q = t % 2 == 0 ? 127 : -128;
    const double per_block = 8 * 63 * 32 * (31 * q) - 0.5 * 8 * 63 * 32 * q;
    for (size_t r = 0; r < kRows; ++r) EXPECT_EQ(y[t * kRows + r], kBlocks * per_block) << t << " " << r;
  }
  std::vector<float> yv(kRows);
  GetParam().gemv(w.data(), kBlocks, kRows, x.data(), kBlocks, yv.data());
  for (size_t r = 0; r < kRows; ++r) EXPECT_EQ(yv[r], y[r]) << r;
}

// isum above 2^24 from odd pair sums (every weight 63 * 31, activations 127, 126 or -128,
// -127 in turn, token by token): exact in int32, while any float running sum over a block
// would round.
TEST_P(Q5KVariantTest, LargeOddSumsStayExact) {
  constexpr size_t kRows = 9, kBlocks = 2, kTokens = 5;
  const std::vector<BlockQ5K> w(kRows * kBlocks, testing::FullQ5KBlock());
  std::vector<BlockQ8K> x(kTokens * kBlocks);
  for (size_t i = 0; i < x.size(); ++i) {
    const bool positive = i / kBlocks % 2 == 0;
    const int even = positive ? 127 : -128, odd = positive ? 126 : -127;
    x[i].d = 1.0f;
    for (int k = 0; k < kQ8KBlockSize; ++k) x[i].qs[k] = static_cast<int8_t>(k % 2 ? odd : even);
    for (int16_t& s : x[i].bsums) s = static_cast<int16_t>(8 * (even + odd));
  }
  EXPECT_EQ(GemvCheck(w, kBlocks, kRows, x, kBlocks), "");
  EXPECT_EQ(GemmCheck(w, kBlocks, kRows, x, kBlocks, kTokens, kBlocks, kRows), "");
}

// Each fifth bit alone: blocks whose qs are zero and whose qh has one bit set (one element
// of one sub-block at 16), so a fifth bit read from the wrong qh bit or byte shows.
TEST_P(Q5KVariantTest, ReadsEachFifthBitFromItsPlace) {
  std::mt19937 rng(kSeed);
  constexpr size_t kRows = 11, kBlocks = 2;
  for (int j = 0; j < 8; ++j) {
    auto w = testing::RandomQ5KWeights(kRows * kBlocks, rng);
    for (size_t i = 0; i < w.size(); ++i) {
      std::memset(w[i].qs, 0, sizeof(w[i].qs));
      std::memset(w[i].qh, 0, sizeof(w[i].qh));
      w[i].qh[(5 * i + 3 * j) % 32] = static_cast<uint8_t>(1u << j);
    }
    const auto x = testing::RandomActivations(1, kBlocks, kBlocks, rng);
    EXPECT_EQ(GemvCheck(w, kBlocks, kRows, x, kBlocks), "") << "bit " << j;
    EXPECT_EQ(GemmCheck(w, kBlocks, kRows, x, kBlocks, 1, kBlocks, kRows), "") << "bit " << j;
  }
}

TEST(Q5KRegistry, ListsRefLastAndPicksAnAvailableVariant) {
  ASSERT_FALSE(AllQ5KVariants().empty());
  EXPECT_STREQ(AllQ5KVariants().back().name, "ref");
  EXPECT_TRUE(HasFeatures(DetectCpuFeatures(), BestQ5KKernels().required));
}

INSTANTIATE_TEST_SUITE_P(Variants, Q5KVariantTest, ::testing::ValuesIn(AllQ5KVariants()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cpubrrr
