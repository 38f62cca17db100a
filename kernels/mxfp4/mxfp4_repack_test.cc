// The MXFP4 repack keeps every code and exponent where the layout says, and pads with zeros.
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/mxfp4/mxfp4_repacked.h"

namespace cpubrrr {
namespace {

TEST(Mxfp4Repack, EveryCodeAndExponentReadsBack) {
  std::mt19937 rng(testing::kKernelSeed);
  std::uniform_int_distribution<int> byte(0, 255);
  for (size_t rows : {1, 3, 4, 5, 8, 13}) {
    for (size_t n_blocks : {1, 2, 3, 15, 16, 17, 18, 33}) {
      const size_t row_stride = n_blocks + 2;
      std::vector<BlockMxfp4> w(rows * row_stride);
      for (BlockMxfp4& b : w) {
        b.e = static_cast<uint8_t>(byte(rng));
        for (uint8_t& q : b.qs) q = static_cast<uint8_t>(byte(rng));
      }
      const Mxfp4RepackedShape shape{rows, n_blocks};
      std::vector<uint8_t> packed(shape.Bytes(), 0xAA);
      RepackMxfp4(w.data(), row_stride, rows, n_blocks, packed.data());
      const size_t padded_blocks = 2 * shape.Units();
      for (size_t r = 0; r < shape.Groups() * kRepackedRows; ++r) {
        for (size_t b = 0; b < padded_blocks; ++b) {
          const bool real = r < rows && b < n_blocks;
          const BlockMxfp4* block = real ? &w[r * row_stride + b] : nullptr;
          SCOPED_TRACE(::testing::Message() << "rows " << rows << " n_blocks " << n_blocks
                                            << " r " << r << " b " << b);
          ASSERT_EQ(RepackedMxfp4Exponent(packed.data(), shape, r, b), real ? block->e : 0);
          for (int j = 0; j < 32; ++j) {
            const int want = !real ? 0 : j < 16 ? block->qs[j] & 15 : block->qs[j - 16] >> 4;
            ASSERT_EQ(RepackedMxfp4Code(packed.data(), shape, r, b, j), want) << "j " << j;
          }
        }
      }
    }
  }
}

// 4 rows of 90 blocks (gpt-oss width): 45 pairs in 6 chunks, 6 exponent lines.
TEST(Mxfp4Repack, GroupBytesOfTheGptOssWidth) {
  const Mxfp4RepackedShape shape{5760, 90};
  EXPECT_EQ(shape.Units(), 45u);
  EXPECT_EQ(shape.GroupBytes(), 6 * 64 + 45 * 128u);
  EXPECT_EQ(shape.Bytes(), 1440 * shape.GroupBytes());
  EXPECT_EQ(shape.GroupBytes() % 64, 0u);
}

}  // namespace
}  // namespace cpubrrr
