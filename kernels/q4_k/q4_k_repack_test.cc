// The Q4_K repack keeps every block's bytes where the layout says, pads with zeros, and
// takes no more bytes than the GGUF rows.
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "kernels/q4_k/q4_k_test_util.h"

namespace cpubrrr {
namespace {

TEST(Q4KRepack, EveryBlockReadsBack) {
  std::mt19937 rng(testing::kKernelSeed);
  const BlockQ4K zero{};
  for (size_t rows : {1, 3, 4, 5, 8, 13}) {
    for (size_t n_blocks : {1, 2, 3, 7, 8, 9, 17}) {
      const size_t row_stride = n_blocks + 2;
      const auto w = testing::RandomQ4KWeights(rows * row_stride, rng);
      const Q4KRepackedShape shape{rows, n_blocks};
      std::vector<uint8_t> packed(shape.Bytes(), 0xAA);
      RepackQ4K(w.data(), row_stride, rows, n_blocks, packed.data());
      for (size_t r = 0; r < shape.Groups() * kRepackedRows; ++r) {
        for (size_t b = 0; b < n_blocks; ++b) {
          const BlockQ4K got = RepackedQ4KBlock(packed.data(), shape, r, b);
          const BlockQ4K& want = r < rows ? w[r * row_stride + b] : zero;
          ASSERT_EQ(std::memcmp(&got, &want, sizeof(BlockQ4K)), 0)
              << "rows " << rows << " n_blocks " << n_blocks << " r " << r << " b " << b;
        }
      }
    }
  }
}

// A group is its four rows' bytes, rearranged.
TEST(Q4KRepack, GroupBytes) {
  EXPECT_EQ((Q4KRepackedShape{2048, 3}.GroupBytes()), 4 * 3 * sizeof(BlockQ4K));
  EXPECT_EQ((Q4KRepackedShape{1536, 8}.GroupBytes()), 4 * 8 * sizeof(BlockQ4K));
  EXPECT_EQ((Q4KRepackedShape{5, 9}.Bytes()), 2 * 4 * 9 * sizeof(BlockQ4K));
}

}  // namespace
}  // namespace cpubrrr
