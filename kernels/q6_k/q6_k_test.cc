// Every Q6_K kernel variant against the scalar oracle over shape and value edges: bit for bit,
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
#include "kernels/q6_k/q6_k.h"
#include "kernels/q6_k/q6_k_ref.h"
#include "kernels/q6_k/q6_k_test_util.h"
#include "quant/fp16.h"
#include "quant/q6_k.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

// Scalar model of ggml's x86 order (kernels/kquant/ggml_x86_order.h, ggml's
// ggml_vec_dot_q6_K_q8_K on AVX2), written from that description independently of the
// AVX-512 code: eight int32 lanes per block (lane u: values 32c + 4u .. 32c + 4u + 3 of
// every chunk c, unbiased, minus 32 * the scaled bsums of sub-blocks 2u and 2u + 1), one
// fused multiply-add per lane and block.
float GgmlOrderDot(const BlockQ6K* w, const BlockQ8K* x, size_t n_blocks) {
  float acc[8] = {};
  for (size_t b = 0; b < n_blocks; ++b) {
    int32_t lanes[8] = {};
    for (int i = 0; i < kQ6KBlockSize; ++i) {
      lanes[(i % 32) / 4] += w[b].scales[i / 16] * testing::Q6KQuant(w[b], i) * x[b].qs[i];
    }
    for (int u = 0; u < 8; ++u) {
      lanes[u] -= 32 * (w[b].scales[2 * u] * x[b].bsums[2 * u] +
                        w[b].scales[2 * u + 1] * x[b].bsums[2 * u + 1]);
    }
    const float d = x[b].d * Fp16ToFp32(w[b].d);
    for (int u = 0; u < 8; ++u) acc[u] = std::fma(d, static_cast<float>(lanes[u]), acc[u]);
  }
  return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
}

void GgmlOrderGemm(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  for (size_t t = 0; t < n_tokens; ++t) {
    for (size_t r = 0; r < rows; ++r) {
      y[t * y_stride + r] = GgmlOrderDot(w + r * row_stride, x + t * x_stride, n_blocks);
    }
  }
}

// The A of DotErrorBound for one row and token: sum over blocks of |x.d d| sum_i
// |scale_i| (q_i + 32) |x_i|. It bounds the oracle's |isum| and every lane of ggml's order,
// whose quant and bias parts (q_i and 32) cover different elements and cancel only in
// the float sum. On any path to a result lie at most n_blocks + 5 roundings (the oracle:
// conversion, two products, n_blocks additions; ggml's order: the scale product, the
// conversion of a lane above 2^24, n_blocks fused multiply-adds, 3 additions), within
// DotErrorBound's n_blocks + 27.
double AbsSum(const BlockQ6K* w, const BlockQ8K* x, size_t n_blocks) {
  double a = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    double s = 0;
    for (int i = 0; i < kQ6KBlockSize; ++i) {
      s += std::abs(w[b].scales[i / 16]) * (testing::Q6KQuant(w[b], i) + 32) * std::abs(x[b].qs[i]);
    }
    a += std::fabs(x[b].d * Fp16ToFp32(w[b].d)) * s;
  }
  return a;
}

// The format's pieces for testing::KQuantVariantTest.
struct Q6KFormat {
  using Kernels = Q6KKernels;
  using Block = BlockQ6K;
  static constexpr auto GemvRef = Q6KGemvRef;
  static constexpr auto GemmRef = Q6KGemmRef;
  static constexpr auto GgmlOrderGemm = cpubrrr::GgmlOrderGemm;
  static constexpr auto AbsSum = cpubrrr::AbsSum;
  static constexpr auto RandomWeights = testing::RandomQ6KWeights;
};

class Q6KVariantTest : public testing::KQuantVariantTest<Q6KFormat> {};

TEST_P(Q6KVariantTest, GemvMatchesOracleOverShapes) { CheckGemvShapes(); }
TEST_P(Q6KVariantTest, GemmMatchesOracleOverShapes) { CheckGemmShapes(); }
TEST_P(Q6KVariantTest, GemmMatchesOracleAroundLaneTiles) { CheckGemmAroundLaneTiles(); }
TEST_P(Q6KVariantTest, HandlesZeroBlocks) { CheckZeroBlocks(); }

// Largest integer sums: every quant 63 (q - 32 = 31), every scale -128, activations all
// +127 or all -128 (beyond what the quantizer makes). Per block isum = 16 * (-128) * 16 *
// 31 * q8 reaches 31 * 2^22, inside int32; a vpdpbusd lane (4 * 63 * 128) fits int16.
TEST_P(Q6KVariantTest, ExtremeValuesDoNotOverflow) {
  constexpr size_t kRows = 9, kBlocks = 3, kTokens = 2;
  BlockQ6K full{};
  full.d = 0x3C00;  // 1.0
  std::memset(full.ql, 0xFF, sizeof(full.ql));
  std::memset(full.qh, 0xFF, sizeof(full.qh));
  for (int8_t& s : full.scales) s = -128;
  const std::vector<BlockQ6K> w(kRows * kBlocks, full);
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
    const double per_block = 16 * -128.0 * 16 * 31 * q;
    for (size_t r = 0; r < kRows; ++r) EXPECT_EQ(y[t * kRows + r], kBlocks * per_block) << t << " " << r;
  }
  std::vector<float> yv(kRows);
  GetParam().gemv(w.data(), kBlocks, kRows, x.data(), kBlocks, yv.data());
  for (size_t r = 0; r < kRows; ++r) EXPECT_EQ(yv[r], y[r]) << r;
}

// The SME variant is the best exactly where the CPU has SME; under qemu
// (CPUBRRR_EXPECT_SME) it must have it.
TEST(Q6KRegistry, SmeIsBestExactlyWhereTheCpuHasIt) {
  const bool has_sme = HasFeatures(DetectCpuFeatures(), kCpuSme);
  if (std::getenv("CPUBRRR_EXPECT_SME") != nullptr) {
    ASSERT_TRUE(has_sme) << "no SME under qemu";
  }
  EXPECT_EQ(std::string(BestQ6KKernels().name) == "sme", has_sme) << BestQ6KKernels().name;
}

TEST(Q6KRegistry, ListsRefLastAndPicksAnAvailableVariant) {
  ASSERT_FALSE(AllQ6KVariants().empty());
  EXPECT_STREQ(AllQ6KVariants().back().name, "ref");
  EXPECT_TRUE(HasFeatures(DetectCpuFeatures(), BestQ6KKernels().required));
}

INSTANTIATE_TEST_SUITE_P(Variants, Q6KVariantTest, ::testing::ValuesIn(AllQ6KVariants()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cpubrrr
