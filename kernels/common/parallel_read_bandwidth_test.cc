// Checks that the threads of the parallel read together read every word exactly once.
#include "kernels/common/parallel_read_bandwidth.h"

#include "gtest/gtest.h"
#include "hwy/aligned_allocator.h"

namespace cpubrrr {
namespace {

TEST(ParallelStreamRead, EveryWordReadOnceByOneThread) {
  const size_t n = 64 * 37;  // 37 blocks: parts of unequal size for 2, 3 and 5 threads
  auto data = hwy::AllocateAligned<uint64_t>(n);
  for (size_t i = 0; i < n; ++i) data[i] = 0;
  // With one non-zero word the checksum is that word: 0 if no thread read it, twice it if
  // two did. The first and last word of every block covers every part boundary.
  for (int threads : {1, 2, 3, 5}) {
    for (size_t pos = 0; pos < n; pos += (pos % 64 == 0 ? 63 : 1)) {
      data[pos] = 0x0123456789abcdefull;
      uint64_t checksum = 0;
      const std::vector<double> seconds = TimeParallelStreamRead(data.get(), n, threads, 2, checksum);
      EXPECT_EQ(checksum, 0x0123456789abcdefull) << threads << " threads, word " << pos;
      ASSERT_EQ(seconds.size(), 2u);
      EXPECT_GE(seconds[0], 0.0);
      data[pos] = 0;
    }
  }
}

TEST(ParallelReadBandwidth, OneRatePerThreadCount) {
  const std::vector<double> gbs = MeasureParallelReadBandwidthGBs(size_t{16} << 20, {1, 2, 3}, 2);
  ASSERT_EQ(gbs.size(), 3u);
  for (double rate : gbs) {
    EXPECT_GT(rate, 0.0);
    EXPECT_LT(rate, 1e5);
  }
}

}  // namespace
}  // namespace cpubrrr
