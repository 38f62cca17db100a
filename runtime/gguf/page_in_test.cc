// PageIn: progress reaches 1 in order over a real mapping; AvailableMemoryBytes is sane.
#include "runtime/gguf/page_in.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/gguf/mapped_file.h"

namespace cpubrrr {
namespace {

TEST(PageInTest, ReportsIncreasingProgressEndingAtOne) {
  const std::string path = ::testing::TempDir() + "/page_in_test.bin";
  {
    std::ofstream out(path, std::ios::binary);
    const std::vector<char> chunk(size_t{1} << 20, 'x');
    for (int i = 0; i < 130; ++i) out.write(chunk.data(), chunk.size());  // 130 MiB: 3 chunks
  }
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  std::vector<double> seen;
  PageIn((*file)->bytes(), [&](double f) { seen.push_back(f); });
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_LT(seen[0], seen[1]);
  EXPECT_LT(seen[1], seen[2]);
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);
  EXPECT_EQ((*file)->bytes()[(size_t{130} << 20) - 1], 'x');
  std::remove(path.c_str());
}

TEST(PageInTest, EmptySpanAndNoCallbackAreFine) {
  PageIn({}, nullptr);
  std::vector<uint8_t> buffer(10000, 1);
  PageIn(buffer, nullptr);
}

TEST(PageInTest, AvailableMemoryIsBelowPhysicalMemory) {
  const uint64_t available = AvailableMemoryBytes();
  const uint64_t physical = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  EXPECT_GT(available, 0u);
  EXPECT_LE(available, physical);
}

}  // namespace
}  // namespace cpubrrr
