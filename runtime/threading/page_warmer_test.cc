// PageWarmer touches exactly one byte in each 2 MiB page of the latest request's spans.
#include "runtime/threading/page_warmer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

constexpr size_t kPage = PageWarmer::kPageBytes;

// A shared-memory file of `pages` 2 MiB pages mapped read-only at a 2 MiB boundary: its
// 4 KiB pages become resident only when read, so mincore shows which bytes were touched.
class SparseMapping {
 public:
  explicit SparseMapping(size_t pages) : size_(pages * kPage) {
    fd_ = memfd_create("page_warmer_test", 0);
    EXPECT_GE(fd_, 0);
    EXPECT_EQ(ftruncate(fd_, static_cast<off_t>(size_)), 0);
    // Reserve one page more, then map the file at the first 2 MiB boundary inside.
    void* area = mmap(nullptr, size_ + kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(area, MAP_FAILED);
    reserved_ = static_cast<uint8_t*>(area);
    uint8_t* aligned = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(area) + kPage - 1) & ~(kPage - 1));
    base_ = static_cast<uint8_t*>(mmap(aligned, size_, PROT_READ, MAP_SHARED | MAP_FIXED, fd_, 0));
    EXPECT_EQ(base_, aligned);
  }
  ~SparseMapping() {
    munmap(reserved_, size_ + kPage);
    close(fd_);
  }
  const uint8_t* base() const { return base_; }
  // Returns the offsets of the resident 4 KiB pages.
  std::vector<size_t> Resident() const {
    const size_t small = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> v(size_ / small);
    EXPECT_EQ(mincore(const_cast<uint8_t*>(base_), size_, v.data()), 0);
    std::vector<size_t> out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] & 1) out.push_back(i * small);
    }
    return out;
  }

 private:
  size_t size_;
  int fd_ = -1;
  uint8_t* reserved_ = nullptr;
  uint8_t* base_ = nullptr;
};

size_t SmallPage(size_t offset) {
  const size_t small = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return offset / small * small;
}

TEST(PageWarmerTest, TouchesTheFirstByteOfEachSpanAndEachPageStartInside) {
  SparseMapping m(6);
  PageWarmer warmer;
  // [100, 100 + 2 pages) reads byte 100 and the starts of pages 1 and 2; a 2-byte span
  // across the start of page 4 reads its first byte and that start; an empty span nothing.
  const ByteSpan spans[] = {{m.base() + 100, 2 * kPage},
                            {m.base() + 4 * kPage - 1, 2},
                            {m.base() + 5 * kPage + 7, 0}};
  warmer.Warm(spans);
  warmer.WaitIdle();
  EXPECT_EQ(warmer.pages_touched(), 5u);
  EXPECT_EQ(m.Resident(), (std::vector<size_t>{SmallPage(100), kPage, 2 * kPage,
                                               SmallPage(4 * kPage - 1), 4 * kPage}));
}

TEST(PageWarmerTest, EveryRequestIsFinishedOrReplacedAndTheLastIsTouched) {
  SparseMapping m(8);
  PageWarmer warmer;
  for (int round = 0; round < 50; ++round) {
    const ByteSpan span{m.base(), 8 * kPage};
    warmer.Warm({&span, 1});
  }
  const ByteSpan last{m.base() + 6 * kPage + 12345, kPage};
  warmer.Warm({&last, 1});
  warmer.WaitIdle();
  const std::vector<size_t> resident = m.Resident();
  // The last request reads its first byte and the start of page 7.
  EXPECT_NE(std::find(resident.begin(), resident.end(), SmallPage(6 * kPage + 12345)), resident.end());
  EXPECT_NE(std::find(resident.begin(), resident.end(), SmallPage(7 * kPage)), resident.end());
  // Only 2 MiB page starts and the spans' first bytes were read.
  for (size_t offset : resident) {
    EXPECT_TRUE(offset % kPage == 0 || offset == SmallPage(6 * kPage + 12345)) << offset;
  }
}

TEST(PageWarmerTest, StopsWithWorkPending) {
  SparseMapping m(4);
  {
    PageWarmer warmer;
    const ByteSpan span{m.base(), 4 * kPage};
    warmer.Warm({&span, 1});
  }  // the destructor returns (the test would time out otherwise), done or not
}

}  // namespace
}  // namespace cpubrrr
