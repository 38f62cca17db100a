// mmap-based 2 MiB-aligned allocation with MADV_HUGEPAGE.
#include "kernels/common/huge_pages.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cpubrrr {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

// The mapping starts one huge page before the data; its first bytes hold these fields.
struct Header {
  void* base;
  size_t length;
};

}  // namespace

std::unique_ptr<void, HugePagesFree> TryAllocateHugePages(size_t bytes) {
  // One extra huge page for the header and one for aligning the start.
  const size_t length = (bytes + kHugePage - 1) / kHugePage * kHugePage + 2 * kHugePage;
  void* base = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  const uintptr_t first = reinterpret_cast<uintptr_t>(base);
  const uintptr_t data = (first + sizeof(Header) + kHugePage - 1) / kHugePage * kHugePage;
  ::madvise(reinterpret_cast<void*>(data), length - (data - first) , MADV_HUGEPAGE);
  *reinterpret_cast<Header*>(data - sizeof(Header)) = {base, length};
  return std::unique_ptr<void, HugePagesFree>(reinterpret_cast<void*>(data));
}

std::unique_ptr<void, HugePagesFree> AllocateHugePages(size_t bytes) {
  std::unique_ptr<void, HugePagesFree> p = TryAllocateHugePages(bytes);
  if (p == nullptr) {
    std::fprintf(stderr, "AllocateHugePages: mmap of %zu bytes failed: %s\n", bytes, std::strerror(errno));
    std::abort();
  }
  return p;
}

void HugePagesFree::operator()(void* p) const {
  if (p == nullptr) return;
  const Header h = *reinterpret_cast<const Header*>(static_cast<uint8_t*>(p) - sizeof(Header));
  ::munmap(h.base, h.length);
}

}  // namespace cpubrrr
