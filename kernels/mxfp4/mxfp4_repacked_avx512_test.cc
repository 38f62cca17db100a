// The AVX-512 gemv on repacked MXFP4 gives GemvMxfp4Avx512's bits (ggml's x86 order), and
// the oracle's where every float step is exact; the gemm gives GemmMxfp4Avx512's.
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "kernels/common/dot_test_util.h"
#include "kernels/common/variant_test_util.h"
#include "kernels/mxfp4/mxfp4.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

class RepackedGemvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    struct {
      const char* name;
      CpuFeatures required;
    } const gemv = {"mxfp4_repacked_avx512", kCpuAvx512 | kCpuAvx512Vnni};
    testing::SkipUnlessCpuRuns(gemv);
  }

  // Repacks w and compares the repacked gemv with `want_fn` on x, over the whole matrix
  // and over each single group (group_begin > 0 included).
  void Compare(const std::vector<BlockMxfp4>& w, size_t row_stride, size_t rows, size_t n_blocks,
               const BlockQ8_0* x, Mxfp4GemvFn want_fn) {
    const Mxfp4RepackedShape shape{rows, n_blocks};
    // 64-byte aligned, as the gemv requires.
    std::vector<uint8_t> storage(shape.Bytes() + 64);
    uint8_t* packed = storage.data() + (64 - reinterpret_cast<uintptr_t>(storage.data()) % 64) % 64;
    RepackMxfp4(w.data(), row_stride, rows, n_blocks, packed);
    std::vector<float> want(rows), got(shape.Groups() * kRepackedRows + 1, -1234.5f);
    want_fn(w.data(), row_stride, rows, x, n_blocks, want.data());
    GemvMxfp4RepackedAvx512(packed, shape, 0, shape.Groups(), x, got.data());
    const std::string where = "rows " + std::to_string(rows) + ", n_blocks " + std::to_string(n_blocks);
    ASSERT_EQ(testing::FloatBitsDiff(got.data(), want.data(), rows), "") << where;
    for (size_t r = rows; r < got.size(); ++r) ASSERT_EQ(got[r], -1234.5f) << "wrote past rows; " << where;
    for (size_t g = 0; g < shape.Groups(); ++g) {
      std::vector<float> one(kRepackedRows, -1234.5f);
      GemvMxfp4RepackedAvx512(packed, shape, g, 1, x, one.data());
      for (size_t i = 0; i < kRepackedRows && g * kRepackedRows + i < rows; ++i) {
        ASSERT_EQ(testing::FloatBitsDiff(&one[i], &want[g * kRepackedRows + i], 1), "") << "group " << g << "; " << where;
      }
    }
  }
};

std::vector<BlockMxfp4> RandomWeights(size_t n, int e_lo, int e_hi, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255), e(e_lo, e_hi);
  std::vector<BlockMxfp4> w(n);
  for (BlockMxfp4& b : w) {
    b.e = static_cast<uint8_t>(e(rng));
    for (uint8_t& q : b.qs) q = static_cast<uint8_t>(byte(rng));
  }
  return w;
}

// Activations with random fp16 scales of every finite magnitude, subnormals included.
std::vector<BlockQ8_0> RandomActivations(size_t n_blocks, std::mt19937& rng) {
  std::uniform_int_distribution<int> d_bits(0, 0x7BFF), sign(0, 1);
  auto x = testing::RandomQ8_0Blocks(n_blocks, 0, rng);
  for (BlockQ8_0& b : x) b.d = static_cast<uint16_t>(d_bits(rng) | (sign(rng) << 15));
  return x;
}

// Shapes around the layout: 1 block, odd counts (a lone last block), whole and partial
// chunks of 8 pairs; rows around the group of 4; a row stride wider than the row.
TEST_F(RepackedGemvTest, SameBitsAsTheAvx512GemvAcrossShapes) {
  std::mt19937 rng(testing::kKernelSeed);
  for (size_t n_blocks : {1, 2, 3, 4, 15, 16, 17, 18, 31, 32, 33, 90}) {
    for (size_t rows : {1, 3, 4, 5, 8, 13, 37}) {
      const size_t row_stride = n_blocks + 1;
      const auto w = RandomWeights(rows * row_stride, 100, 140, rng);
      const auto x = RandomActivations(n_blocks, rng);
      Compare(w, row_stride, rows, n_blocks, x.data(), GemvMxfp4Avx512);
    }
  }
}

// Every exponent, against activation scales of every magnitude: the scale product
// 2^(e-128) d_x rounds (subnormal results) exactly as ggml's multiplication does.
TEST_F(RepackedGemvTest, SameBitsAsTheAvx512GemvOverEveryExponent) {
  std::mt19937 rng(testing::kKernelSeed + 1);
  for (int e = 0; e < 256; ++e) {
    const auto w = RandomWeights(6 * 18, e, e, rng);
    const auto x = RandomActivations(18, rng);
    SCOPED_TRACE("e = " + std::to_string(e));
    Compare(w, 18, 6, 18, x.data(), GemvMxfp4Avx512);
  }
}

// Exponents 127..128 and activation scale 1: every float step is exact, so the oracle's
// bits too.
TEST_F(RepackedGemvTest, OracleBitsOnExactInputs) {
  std::mt19937 rng(testing::kKernelSeed + 2);
  for (size_t n_blocks : {1, 5, 16, 17, 64}) {
    const auto w = RandomWeights(9 * n_blocks, 127, 128, rng);
    const auto x = testing::RandomQ8_0Blocks(n_blocks, 0x3C00, rng);
    Compare(w, n_blocks, 9, n_blocks, x.data(), GemvMxfp4Ref);
  }
}

// The gemm against GemmMxfp4Avx512 (the oracle's bits) on realistic inputs: slices of 64
// groups and a partial one (rows > 256), starting groups past 0, strided tokens and rows.
TEST_F(RepackedGemvTest, GemmGivesTheLaneTileGemmsBits) {
  std::mt19937 rng(testing::kKernelSeed + 3);
  for (size_t rows : {3, 13, 300}) {
    for (size_t n_blocks : {1, 17, 90}) {
      const auto w = RandomWeights(rows * n_blocks, 100, 140, rng);
      const Mxfp4RepackedShape shape{rows, n_blocks};
      std::vector<uint8_t> storage(shape.Bytes() + 64);
      uint8_t* packed = storage.data() + (64 - reinterpret_cast<uintptr_t>(storage.data()) % 64) % 64;
      RepackMxfp4(w.data(), n_blocks, rows, n_blocks, packed);
      for (size_t n_tokens : {1, 5, 17}) {
        const size_t x_stride = n_blocks + 1;
        const auto x = RandomActivations(n_tokens * x_stride, rng);
        for (size_t g0 : {size_t{0}, shape.Groups() - 1}) {
          const size_t first = g0 * kRepackedRows, n_rows = rows - first;
          const size_t y_stride = shape.Groups() * kRepackedRows + 3;
          std::vector<float> want(n_tokens * y_stride, -1234.5f), got(want);
          GemmMxfp4Avx512(w.data() + first * n_blocks, n_blocks, n_rows, x.data(), x_stride,
                          n_tokens, n_blocks, want.data(), y_stride);
          GemmMxfp4RepackedAvx512(packed, shape, g0, shape.Groups() - g0, x.data(), x_stride,
                                  n_tokens, got.data(), y_stride);
          ASSERT_EQ(testing::FloatBitsDiff(got.data(), want.data(), got.size()), "")
              << "rows " << rows << ", n_blocks " << n_blocks << ", n_tokens " << n_tokens
              << ", from group " << g0;
        }
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
