// The Q6_K repack keeps every quant, sub-block scale and d where the layout says, and pads
// with zeros.
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "kernels/q6_k/q6_k_test_util.h"
#include "quant/test_util.h"

namespace cpubrrr {
namespace {

TEST(Q6KRepack, EveryQuantScaleAndDReadsBack) {
  std::mt19937 rng(testing::kKernelSeed);
  for (size_t rows : {1, 3, 4, 5, 8, 13}) {
    for (size_t n_blocks : {1, 2, 3, 7, 8, 9, 17}) {
      const size_t row_stride = n_blocks + 2;
      const auto w = testing::RandomBlocks<BlockQ6K>(rows * row_stride, rng, [](BlockQ6K&) {});
      const Q6KRepackedShape shape{rows, n_blocks};
      std::vector<uint8_t> packed(shape.Bytes(), 0xAA);
      RepackQ6K(w.data(), row_stride, rows, n_blocks, packed.data());
      for (size_t r = 0; r < shape.Groups() * kRepackedRows; ++r) {
        for (size_t b = 0; b < n_blocks; ++b) {
          const BlockQ6K* block = r < rows ? &w[r * row_stride + b] : nullptr;
          SCOPED_TRACE(::testing::Message() << "rows " << rows << " n_blocks " << n_blocks
                                            << " r " << r << " b " << b);
          ASSERT_EQ(RepackedQ6KD(packed.data(), shape, r, b), block ? block->d : 0);
          for (int s = 0; s < 16; ++s) {
            ASSERT_EQ(RepackedQ6KScale(packed.data(), shape, r, b, s), block ? block->scales[s] : 0)
                << "s " << s;
          }
          for (int i = 0; i < kQ6KBlockSize; ++i) {
            ASSERT_EQ(RepackedQ6KQuant(packed.data(), shape, r, b, i),
                      block ? testing::Q6KQuant(*block, i) : 0)
                << "i " << i;
          }
        }
      }
    }
  }
}

// A chunk's scale line holds the d of 8 superblocks x 4 rows, so whole chunks cost nothing
// over the GGUF layout; a partial chunk costs one line.
TEST(Q6KRepack, GroupBytes) {
  EXPECT_EQ((Q6KRepackedShape{151936, 8}.GroupBytes()), 4 * 8 * sizeof(BlockQ6K));
  EXPECT_EQ((Q6KRepackedShape{2048, 3}.GroupBytes()), 64 + 3 * 832u);
  EXPECT_EQ((Q6KRepackedShape{5, 9}.GroupBytes()), 2 * 64 + 9 * 832u);
  EXPECT_EQ((Q6KRepackedShape{5, 9}.Bytes()), 2 * (2 * 64 + 9 * 832u));
}

}  // namespace
}  // namespace cpubrrr
