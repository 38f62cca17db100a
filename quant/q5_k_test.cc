// Compares the Q5_K encoder and decoder byte for byte with llama.cpp's reference (libggml-base).
#include <cmath>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "quant/q5_k.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

using testing::kSeed;

constexpr int kQK = kQ5KBlockSize;

testing::RefToFloat RefDecode() { return ggml_get_type_traits(GGML_TYPE_Q5_K)->to_float; }
testing::RefFromFloat RefEncode() { return ggml_get_type_traits(GGML_TYPE_Q5_K)->from_float_ref; }

TEST(Q5KVsGgml, ReferenceIsAvailable) {
  ASSERT_NE(RefDecode(), nullptr);
  ASSERT_NE(RefEncode(), nullptr);
  EXPECT_EQ(ggml_type_size(GGML_TYPE_Q5_K), sizeof(BlockQ5K));
  EXPECT_EQ(ggml_blck_size(GGML_TYPE_Q5_K), kQ5KBlockSize);
}

TEST(Q5KVsGgml, DecodesRandomBlocksIdentically) {
  std::mt19937 rng(kSeed);
  auto blocks = testing::RandomBlocks<BlockQ5K>(10000, rng, [&](BlockQ5K& b) {
    b.d = testing::RandomFiniteFp16(rng);
    b.dmin = testing::RandomFiniteFp16(rng);
  });
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowQ5K, RefDecode(), blocks, kQK), "")
      << "seed " << kSeed;
}

TEST(Q5KVsGgml, DecodesEdgeScalesIdentically) {
  std::mt19937 rng(kSeed);
  std::vector<BlockQ5K> blocks;
  constexpr uint16_t kScales[] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x7BFF, 0xFBFF, 0x3C00};
  for (uint16_t d : kScales) {
    for (uint16_t dmin : kScales) {
      auto b = testing::RandomBlocks<BlockQ5K>(1, rng, [](BlockQ5K&) {})[0];
      b.d = d;
      b.dmin = dmin;
      blocks.push_back(b);
    }
  }
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowQ5K, RefDecode(), blocks, kQK), "")
      << "seed " << kSeed;
}

TEST(Q5KVsGgml, EncodesRandomRowsIdentically) {
  std::mt19937 rng(kSeed);
  for (testing::Dist dist : testing::kAllDists) {
    const std::vector<float> x = testing::RandomFloats(dist, 2000 * kQK, kQK, rng);
    EXPECT_EQ(testing::EncodeDiff(QuantizeRowQ5K, RefEncode(), x, kQK), "")
        << "seed " << kSeed << ", distribution " << testing::DistName(dist);
  }
}

TEST(Q5KVsGgml, EncodesEdgeBlocksIdentically) {
  std::vector<float> x;
  auto add_block = [&](auto value_at) {
    for (int i = 0; i < kQK; ++i) x.push_back(value_at(i));
  };
  add_block([](int) { return 0.0f; });
  add_block([](int) { return 0.75f; });   // constant and positive: min clamps to 0
  add_block([](int) { return -0.75f; });  // constant and negative: max == min
  add_block([](int i) { return static_cast<float>(i % 32); });  // exactly on a grid
  add_block([](int i) { return (i % 32) + 0.5f; });             // halfway between steps
  add_block([](int i) { return (i % 32) < 16 ? 0.0f : 31.0f; });  // only q = 0 and q = 31
  // One loud sub-block and seven quiet ones whose 6-bit scales round to zero.
  add_block([](int i) { return i < 32 ? 1000.0f * (i - 16) : 0.001f * (i % 7 - 3); });
  // Largest magnitudes: d near the top of fp16, then past it (inf).
  add_block([](int i) { return 60000.0f * 63.0f * 31.0f / 32.0f * ((i % 32) - 16) / 16.0f; });
  add_block([](int i) { return 1.0e30f * ((i % 5) - 2); });
  // Tiny values: fp16 d and dmin subnormal or zero.
  add_block([](int i) { return std::ldexp(static_cast<float>((i * 37) % 64 - 20), -26); });
  add_block([](int i) { return std::ldexp(static_cast<float>((i * 37) % 64 - 20), -40); });
  EXPECT_EQ(testing::EncodeDiff(QuantizeRowQ5K, RefEncode(), x, kQK), "");
}

}  // namespace
}  // namespace cpubrrr
