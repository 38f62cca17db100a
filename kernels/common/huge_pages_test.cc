// AllocateHugePages: alignment, zeroed and writable memory, sizes around the page size.
#include "kernels/common/huge_pages.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(HugePagesTest, AlignedZeroedAndWritable) {
  for (size_t bytes : {size_t{1}, size_t{4096}, (size_t{2} << 20) - 1, size_t{2} << 20,
                       (size_t{2} << 20) + 1, size_t{9} << 20}) {
    auto p = AllocateHugeArray<uint8_t>(bytes);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p.get()) % (size_t{2} << 20), 0u) << bytes;
    for (size_t i = 0; i < bytes; i += 4093) EXPECT_EQ(p[i], 0) << i;
    EXPECT_EQ(p[bytes - 1], 0);
    p[0] = 1;
    p[bytes - 1] = 2;  // the last byte is inside the mapping
    EXPECT_EQ(p[bytes - 1], 2);
  }
}

TEST(HugePagesTest, TypedArrayHoldsElements) {
  auto a = AllocateHugeArray<uint64_t>(1000);
  for (uint64_t i = 0; i < 1000; ++i) a[i] = i * i;
  uint64_t sum = 0;
  for (uint64_t i = 0; i < 1000; ++i) sum += a[i];
  EXPECT_EQ(sum, 332833500u);
}

}  // namespace
}  // namespace cpubrrr
