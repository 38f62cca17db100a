// Compares the MXFP4 encoder and decoder byte for byte with llama.cpp's reference (libggml-base).
#include <cmath>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "quant/mxfp4.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

constexpr int kQK = kMxfp4BlockSize;

testing::RefToFloat RefDecode() { return ggml_get_type_traits(GGML_TYPE_MXFP4)->to_float; }
testing::RefFromFloat RefEncode() { return ggml_get_type_traits(GGML_TYPE_MXFP4)->from_float_ref; }

TEST(Mxfp4VsGgml, ReferenceIsAvailable) {
  ASSERT_NE(RefDecode(), nullptr);
  ASSERT_NE(RefEncode(), nullptr);
  EXPECT_EQ(ggml_type_size(GGML_TYPE_MXFP4), sizeof(BlockMxfp4));
}

TEST(Mxfp4VsGgml, DecodesRandomBlocksIdentically) {
  std::mt19937 rng(kSeed);
  auto blocks = testing::RandomBlocks<BlockMxfp4>(10000, rng, [](BlockMxfp4&) {});
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowMxfp4, RefDecode(), blocks, kQK), "")
      << "seed " << kSeed;
}

TEST(Mxfp4VsGgml, DecodesEveryCodeAtEveryExponentIdentically) {
  std::vector<BlockMxfp4> blocks;
  for (int e = 0; e < 256; ++e) {
    BlockMxfp4 b{};
    b.e = static_cast<uint8_t>(e);
    for (int j = 0; j < kQK / 2; ++j) b.qs[j] = static_cast<uint8_t>(j | (15 - j) << 4);
    blocks.push_back(b);
  }
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowMxfp4, RefDecode(), blocks, kQK), "");
}

TEST(Mxfp4VsGgml, EncodesRandomRowsIdentically) {
  std::mt19937 rng(kSeed);
  for (testing::Dist dist : testing::kAllDists) {
    const std::vector<float> x = testing::RandomFloats(dist, 2000 * kQK, kQK, rng);
    EXPECT_EQ(testing::EncodeDiff(QuantizeRowMxfp4, RefEncode(), x, kQK), "")
        << "seed " << kSeed << ", distribution " << testing::DistName(dist);
  }
}

TEST(Mxfp4VsGgml, EncodesEdgeBlocksIdentically) {
  std::vector<float> x;
  auto add_block = [&](auto value_at) {
    for (int i = 0; i < kQK; ++i) x.push_back(value_at(i));
  };
  add_block([](int) { return 0.0f; });
  add_block([](int i) { return i % 3 ? -0.0f : 0.0f; });
  // amax 6 gives scale 0.5, so the grid is {0, .5, 1, 1.5, 2, 3, 4, 6}; these inputs sit
  // exactly halfway between neighbours, where the lowest code must win.
  constexpr float kHalfway[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
  add_block([&](int i) { return i == 0 ? 6.0f : (i % 2 ? -1 : 1) * kHalfway[i % 7]; });
  // amax at every power of two that keeps e >= 0, and just below each (log2f rounding).
  for (int k = -125; k <= 127; ++k) {
    const float p = std::ldexp(1.0f, k);
    add_block([&](int i) { return i == 7 ? p : p * (i - 16) / 17.0f; });
    add_block([&](int i) { return i == 7 ? -std::nextafter(p, 0.0f) : p * (16 - i) / 17.0f; });
  }
  // Largest magnitudes (e = 252) and every code's exact value.
  add_block([](int i) { return (i % 2 ? -1 : 1) * 3.4028235e38f / (1 + i); });
  add_block([](int i) { return static_cast<float>(kMxfp4DoubledValues[i % 16]) * 0.5f; });
  EXPECT_EQ(testing::EncodeDiff(QuantizeRowMxfp4, RefEncode(), x, kQK), "");
}

}  // namespace
}  // namespace cpubrrr
