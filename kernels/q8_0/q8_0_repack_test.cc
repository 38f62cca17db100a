// The Q8_0 repack keeps every quant and scale where the layout says, and pads with zeros.
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

TEST(Q8_0Repack, EveryQuantAndScaleReadsBack) {
  std::mt19937 rng(testing::kKernelSeed);
  std::uniform_int_distribution<int> byte(-128, 127), d(0, 0xFFFF);
  for (size_t rows : {1, 3, 4, 5, 8, 13}) {
    for (size_t n_blocks : {1, 2, 3, 15, 16, 17, 18, 33}) {
      const size_t row_stride = n_blocks + 2;
      std::vector<BlockQ8_0> w(rows * row_stride);
      for (BlockQ8_0& b : w) {
        b.d = static_cast<uint16_t>(d(rng));
        for (int8_t& q : b.qs) q = static_cast<int8_t>(byte(rng));
      }
      const Q8_0RepackedShape shape{rows, n_blocks};
      std::vector<uint8_t> packed(shape.Bytes(), 0xAA);
      RepackQ8_0(w.data(), row_stride, rows, n_blocks, packed.data());
      for (size_t r = 0; r < shape.Groups() * kQ8_0RepackedRows; ++r) {
        for (size_t b = 0; b < n_blocks; ++b) {
          const bool real = r < rows && b < n_blocks;
          const BlockQ8_0* block = real ? &w[r * row_stride + b] : nullptr;
          SCOPED_TRACE(::testing::Message() << "rows " << rows << " n_blocks " << n_blocks
                                            << " r " << r << " b " << b);
          ASSERT_EQ(RepackedQ8_0Scale(packed.data(), shape, r, b), real ? block->d : 0);
          for (int j = 0; j < 32; ++j) {
            ASSERT_EQ(RepackedQ8_0Quant(packed.data(), shape, r, b, j), real ? block->qs[j] : 0) << "j " << j;
          }
        }
      }
    }
  }
}

// 16 rows of 90 blocks (gpt-oss width): 12 chunks of 8 blocks, each 4 lines of scales,
// and 512 bytes of quants per block: as many bytes as the GGUF rows, but for the padding.
TEST(Q8_0Repack, GroupBytesOfTheGptOssWidth) {
  const Q8_0RepackedShape shape{4096, 90};
  EXPECT_EQ(shape.GroupBytes(), 12 * 256 + 90 * 512u);
  EXPECT_EQ(shape.Bytes(), 256 * shape.GroupBytes());
}

}  // namespace
}  // namespace cpubrrr
