// Compares the Q8_0 encoder and decoder byte for byte with llama.cpp's reference (libggml-base).
#include <cmath>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "quant/fp16.h"
#include "quant/q8_0.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

constexpr int kQK = kQ8_0BlockSize;

testing::RefToFloat RefDecode() { return ggml_get_type_traits(GGML_TYPE_Q8_0)->to_float; }
testing::RefFromFloat RefEncode() { return ggml_get_type_traits(GGML_TYPE_Q8_0)->from_float_ref; }

TEST(Q8_0VsGgml, ReferenceIsAvailable) {
  ASSERT_NE(RefDecode(), nullptr);
  ASSERT_NE(RefEncode(), nullptr);
  EXPECT_EQ(ggml_type_size(GGML_TYPE_Q8_0), sizeof(BlockQ8_0));
}

TEST(Q8_0VsGgml, DecodesRandomBlocksIdentically) {
  std::mt19937 rng(kSeed);
  auto blocks = testing::RandomBlocks<BlockQ8_0>(
      10000, rng, [&](BlockQ8_0& b) { b.d = testing::RandomFiniteFp16(rng); });
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowQ8_0, RefDecode(), blocks, kQK), "")
      << "seed " << kSeed;
}

TEST(Q8_0VsGgml, DecodesEdgeBlocksIdentically) {
  std::vector<BlockQ8_0> blocks;
  for (uint16_t d : {0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x3C00}) {
    BlockQ8_0 b{};
    b.d = d;
    for (int i = 0; i < kQK; ++i) b.qs[i] = static_cast<int8_t>(i % 2 ? -128 + i : 127 - i);
    blocks.push_back(b);
  }
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowQ8_0, RefDecode(), blocks, kQK), "");
}

TEST(Q8_0VsGgml, EncodesRandomRowsIdentically) {
  std::mt19937 rng(kSeed);
  for (testing::Dist dist : testing::kAllDists) {
    const std::vector<float> x = testing::RandomFloats(dist, 2000 * kQK, kQK, rng);
    EXPECT_EQ(testing::EncodeDiff(QuantizeRowQ8_0, RefEncode(), x, kQK), "")
        << "seed " << kSeed << ", distribution " << testing::DistName(dist);
  }
}

TEST(Q8_0VsGgml, EncodesEdgeBlocksIdentically) {
  std::vector<float> x;
  auto add_block = [&](auto value_at) {
    for (int i = 0; i < kQK; ++i) x.push_back(value_at(i));
  };
  add_block([](int) { return 0.0f; });
  add_block([](int i) { return i == 5 ? -0.0f : 0.0f; });
  // amax 127 gives d = 1 exactly, so x.5 inputs land exactly halfway between quants.
  add_block([](int i) { return i == 0 ? 127.0f : (i - 16) + 0.5f; });
  add_block([](int i) { return i == 0 ? -127.0f : -(i - 16) - 0.5f; });
  // Largest magnitudes: d = 65504 (largest finite fp16), then d overflowing to inf.
  add_block([](int i) { return (i % 2 ? 1.0f : -1.0f) * 65504.0f * 127.0f / (1 + i % 3); });
  add_block([](int i) { return i == 3 ? 3.0e38f : std::ldexp(1.0f, i * 3); });
  // Subnormal fp16 scales (2^-20, 2^-24) and one that rounds to zero.
  add_block([](int i) { return std::ldexp(127.0f, -20) * (i - 16) / 16.0f; });
  add_block([](int i) { return std::ldexp(127.0f, -24) * (i - 16) / 16.0f; });
  add_block([](int i) { return std::ldexp(1.0f, -40) * (i - 16); });
  EXPECT_EQ(testing::EncodeDiff(QuantizeRowQ8_0, RefEncode(), x, kQK), "");
}

}  // namespace
}  // namespace cpubrrr
