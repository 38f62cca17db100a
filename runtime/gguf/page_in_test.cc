// PageIn: progress reaches 1 in order over a real mapping; AvailableMemoryBytes is sane;
// cgroup memory limits are read from v1 and v2 trees (fake ones in a temp dir).
#include "runtime/gguf/page_in.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

// Writes `text` to `path`, creating its directories.
void WriteFile(const std::string& path, const std::string& text) {
  ASSERT_EQ(std::system(("mkdir -p " + path.substr(0, path.rfind('/'))).c_str()), 0);
  std::ofstream(path) << text;
}

class CgroupLimitTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::TempDir() + "/cgroup_" +
            testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_EQ(std::system(("rm -rf " + root_).c_str()), 0);
  }
  uint64_t Limit(const std::string& proc_self_cgroup) {
    WriteFile(root_ + "/proc_self_cgroup", proc_self_cgroup);
    return CgroupMemoryLimitBytes(root_ + "/proc_self_cgroup", root_ + "/sys");
  }
  std::string root_;
};

TEST_F(CgroupLimitTest, ReadsTheV1MemoryController) {
  WriteFile(root_ + "/sys/memory/box/a/memory.limit_in_bytes", "6442450944\n");
  EXPECT_EQ(Limit("9:pids:/box/a\n4:cpu,memory:/box/a\n0::/\n"), 6442450944u);
}

TEST_F(CgroupLimitTest, ReadsV2MemoryMaxAndIgnoresMax) {
  WriteFile(root_ + "/sys/box/memory.max", "1073741824\n");
  EXPECT_EQ(Limit("0::/box\n"), 1073741824u);
  WriteFile(root_ + "/sys/box/memory.max", "max\n");
  EXPECT_EQ(Limit("0::/box\n"), UINT64_MAX);
}

TEST_F(CgroupLimitTest, FallsBackToTheNamespaceRootAndTheUnifiedMount) {
  // Inside a container the listed path does not exist under its own mount.
  WriteFile(root_ + "/sys/memory/memory.limit_in_bytes", "2147483648\n");
  WriteFile(root_ + "/sys/unified/box/memory.max", "3221225472\n");
  EXPECT_EQ(Limit("4:memory:/elsewhere\n0::/box\n"), 2147483648u);
}

TEST_F(CgroupLimitTest, NoFilesMeansNoLimit) {
  EXPECT_EQ(Limit("4:memory:/box\n0::/box\n"), UINT64_MAX);
  EXPECT_EQ(CgroupMemoryLimitBytes(root_ + "/missing", root_ + "/sys"), UINT64_MAX);
}

}  // namespace
}  // namespace cpubrrr
