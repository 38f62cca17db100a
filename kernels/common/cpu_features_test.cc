// Checks CPU feature detection for consistency and the streaming-read checksum.
#include "kernels/common/cpu_features.h"

#include <cstdlib>

#include "gtest/gtest.h"
#include "hwy/aligned_allocator.h"
#include "kernels/common/read_bandwidth.h"

namespace cpubrrr {
namespace {

TEST(CpuFeatures, ImpliedFeaturesAreConsistent) {
  const CpuFeatures f = DetectCpuFeatures();
  if (f & kCpuAvx512Vnni) EXPECT_TRUE(f & kCpuAvx512);
  if (f & kCpuAvx512) EXPECT_TRUE(f & kCpuAvx2) << CpuFeatureNames(f);
  if (f & kCpuAvxVnni) EXPECT_TRUE(f & kCpuAvx2) << CpuFeatureNames(f);
  if (f & (kCpuNeonDot | kCpuSme)) EXPECT_TRUE(f & kCpuNeon);
#if defined(__aarch64__)
  EXPECT_TRUE(f & kCpuNeon);
#endif
}

TEST(CpuFeatures, NamesListEveryBit) {
  EXPECT_EQ(CpuFeatureNames(kCpuNone), "none");
  EXPECT_EQ(CpuFeatureNames(kCpuAvx512 | kCpuAvx512Vnni), "avx512 avx512vnni");
  EXPECT_EQ(CpuFeatureNames(kCpuAvx2 | kCpuAvxVnni), "avx2 avxvnni");
  EXPECT_EQ(CpuFeatureNames(kCpuNeonDot | kCpuSme), "dotprod sme");
}

TEST(StreamRead, SeesEveryWord) {
  const size_t n = 64 * 37;
  auto data = hwy::AllocateAligned<uint64_t>(n);
  for (size_t i = 0; i < n; ++i) data[i] = 0;
  // With one non-zero word the xor-then-sum result is exactly that word, wherever it is.
  for (size_t pos : {size_t{0}, size_t{1}, n / 2 + 3, n - 1}) {
    data[pos] = 0xdeadbeefcafef00dull;
    EXPECT_EQ(StreamRead(data.get(), n), 0xdeadbeefcafef00dull) << pos;
    data[pos] = 0;
  }
}

}  // namespace
}  // namespace cpubrrr
