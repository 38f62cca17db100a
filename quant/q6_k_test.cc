// Compares the Q6_K encoder and decoder byte for byte with llama.cpp's reference (libggml-base).
#include <cmath>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "quant/q6_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

constexpr int kQK = kQ6KBlockSize;

testing::RefToFloat RefDecode() { return ggml_get_type_traits(GGML_TYPE_Q6_K)->to_float; }
testing::RefFromFloat RefEncode() { return ggml_get_type_traits(GGML_TYPE_Q6_K)->from_float_ref; }

TEST(Q6KVsGgml, ReferenceIsAvailable) {
  ASSERT_NE(RefDecode(), nullptr);
  ASSERT_NE(RefEncode(), nullptr);
  EXPECT_EQ(ggml_type_size(GGML_TYPE_Q6_K), sizeof(BlockQ6K));
}

TEST(Q6KVsGgml, DecodesRandomBlocksIdentically) {
  std::mt19937 rng(kSeed);
  auto blocks = testing::RandomBlocks<BlockQ6K>(10000, rng, [&](BlockQ6K& b) {
    b.d = testing::RandomFiniteFp16(rng);
  });
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowQ6K, RefDecode(), blocks, kQK), "")
      << "seed " << kSeed;
}

TEST(Q6KVsGgml, DecodesEdgeScalesIdentically) {
  std::mt19937 rng(kSeed);
  std::vector<BlockQ6K> blocks;
  constexpr uint16_t kScales[] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x7BFF, 0xFBFF, 0x3C00};
  for (uint16_t d : kScales) {
    for (int8_t sc : {-128, -1, 0, 1, 127}) {
      auto b = testing::RandomBlocks<BlockQ6K>(1, rng, [](BlockQ6K&) {})[0];
      b.d = d;
      b.scales[sc & 15] = sc;
      blocks.push_back(b);
    }
  }
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowQ6K, RefDecode(), blocks, kQK), "")
      << "seed " << kSeed;
}

TEST(Q6KVsGgml, EncodesRandomRowsIdentically) {
  std::mt19937 rng(kSeed);
  for (testing::Dist dist : testing::kAllDists) {
    const std::vector<float> x = testing::RandomFloats(dist, 2000 * kQK, kQK, rng);
    EXPECT_EQ(testing::EncodeDiff(QuantizeRowQ6K, RefEncode(), x, kQK), "")
        << "seed " << kSeed << ", distribution " << testing::DistName(dist);
  }
}

TEST(Q6KVsGgml, EncodesEdgeBlocksIdentically) {
  std::vector<float> x;
  auto add_block = [&](auto value_at) {
    for (int i = 0; i < kQK; ++i) x.push_back(value_at(i));
  };
  add_block([](int) { return 0.0f; });
  add_block([](int) { return 0.75f; });  // constant block
  add_block([](int i) { return static_cast<float>(i % 64 - 32); });  // exactly on the grid
  add_block([](int i) { return (i % 64 - 32) + 0.5f; });             // halfway between steps
  // Sub-blocks whose largest value is positive, negative, or tied in magnitude.
  add_block([](int i) { return i % 16 == 3 ? ((i / 16) % 2 ? 4.0f : -4.0f) : 0.1f * (i % 16); });
  add_block([](int i) { return i % 16 < 2 ? (i % 2 ? 2.0f : -2.0f) : 0.3f * (i % 5); });
  // One loud sub-block and fifteen quiet ones whose int8 scales round to zero.
  add_block([](int i) { return i < 16 ? 1000.0f * (i - 8) : 0.001f * (i % 7 - 3); });
  // Largest magnitudes: d near the top of fp16, then past it (inf).
  add_block([](int i) { return 60000.0f * 128.0f * 32.0f / 40.0f * ((i % 16) - 8) / 8.0f; });
  add_block([](int i) { return 1.0e30f * ((i % 5) - 2); });
  // Tiny values: fp16 d subnormal or zero, sub-blocks under the all-zero threshold.
  add_block([](int i) { return std::ldexp(static_cast<float>((i * 37) % 64 - 20), -26); });
  add_block([](int i) { return std::ldexp(static_cast<float>((i * 37) % 64 - 20), -40); });
  add_block([](int i) { return std::ldexp(static_cast<float>((i * 37) % 64 - 20), -60); });
  EXPECT_EQ(testing::EncodeDiff(QuantizeRowQ6K, RefEncode(), x, kQK), "");
}

}  // namespace
}  // namespace cpubrrr
