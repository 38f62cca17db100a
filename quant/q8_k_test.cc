// Compares the Q8_K encoder and decoder byte for byte with llama.cpp's reference (libggml-base).
#include <cmath>
#include <cstring>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

// ggml exports its Q8_K converters but leaves them out of the public type traits and
// headers, so declare them here. The block pointer is spelled void*: same ABI.
extern "C" {
void quantize_row_q8_K_ref(const float* x, void* y, int64_t k);
void dequantize_row_q8_K(const void* x, float* y, int64_t k);
}

namespace cpubrrr {
namespace {

using testing::kSeed;

constexpr int kQK = kQ8KBlockSize;

TEST(Q8KVsGgml, BlockSizeMatches) { EXPECT_EQ(ggml_type_size(GGML_TYPE_Q8_K), sizeof(BlockQ8K)); }

// Keeps d finite so that both decoders see an ordinary scale.
void MakeScaleFinite(BlockQ8K& b) {
  uint32_t bits;
  std::memcpy(&bits, &b.d, sizeof(bits));
  if ((bits & 0x7F800000u) == 0x7F800000u) bits &= 0xBFFFFFFFu;
  std::memcpy(&b.d, &bits, sizeof(bits));
}

TEST(Q8KVsGgml, DecodesRandomBlocksIdentically) {
  std::mt19937 rng(kSeed);
  auto blocks = testing::RandomBlocks<BlockQ8K>(10000, rng, MakeScaleFinite);
  EXPECT_EQ(testing::DecodeDiff(DequantizeRowQ8K, dequantize_row_q8_K, blocks, kQK), "")
      << "seed " << kSeed;
}

TEST(Q8KVsGgml, EncodesRandomRowsIdentically) {
  std::mt19937 rng(kSeed);
  for (testing::Dist dist : testing::kAllDists) {
    const std::vector<float> x = testing::RandomFloats(dist, 2000 * kQK, kQK, rng);
    EXPECT_EQ(testing::EncodeDiff(QuantizeRowQ8K, quantize_row_q8_K_ref, x, kQK), "")
        << "seed " << kSeed << ", distribution " << testing::DistName(dist);
  }
}

TEST(Q8KVsGgml, EncodesEdgeBlocksIdentically) {
  std::vector<float> x;
  auto add_block = [&](auto value_at) {
    for (int i = 0; i < kQK; ++i) x.push_back(value_at(i));
  };
  add_block([](int) { return 0.0f; });
  add_block([](int i) { return i % 2 ? -0.0f : 0.0f; });
  // max = -127 gives the scale -127/max = 1 exactly, so x.5 inputs are exact ties (even wins).
  add_block([](int i) { return i == 0 ? -127.0f : (i % 64 - 32) + 0.5f; });
  add_block([](int i) { return i == 9 ? 127.0f : -((i % 64 - 32) + 0.5f); });
  // Largest and tiny magnitudes, float subnormals included.
  add_block([](int i) { return (i % 2 ? -1 : 1) * 3.4028235e38f / (1 + i % 7); });
  add_block([](int i) { return std::ldexp(static_cast<float>(i - 128), -140); });
  add_block([](int i) { return i == 200 ? 1e-30f : 0.0f; });
  EXPECT_EQ(testing::EncodeDiff(QuantizeRowQ8K, quantize_row_q8_K_ref, x, kQK), "");
}

}  // namespace
}  // namespace cpubrrr
