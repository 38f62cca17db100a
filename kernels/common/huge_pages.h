// Anonymous memory backed by 2 MiB transparent huge pages where the kernel allows them.
#ifndef CPUBRRR_KERNELS_COMMON_HUGE_PAGES_H_
#define CPUBRRR_KERNELS_COMMON_HUGE_PAGES_H_

#include <cstddef>
#include <memory>

namespace cpubrrr {

// Unmaps a HugePages allocation (the size is kept in front of the data).
struct HugePagesFree {
  void operator()(void* p) const;
};

// Returns `bytes` of zeroed memory aligned to 2 MiB and advised MADV_HUGEPAGE, so large
// streaming reads pay one TLB entry per 2 MiB as the model's mapped weights do; null if
// the mapping fails.
std::unique_ptr<void, HugePagesFree> TryAllocateHugePages(size_t bytes);

// TryAllocateHugePages that aborts if the mapping fails (for benchmarks and yardsticks).
std::unique_ptr<void, HugePagesFree> AllocateHugePages(size_t bytes);

// Typed view of AllocateHugePages: n elements of T (T must be trivially constructible).
template <typename T>
std::unique_ptr<T[], HugePagesFree> AllocateHugeArray(size_t n) {
  return std::unique_ptr<T[], HugePagesFree>(static_cast<T*>(AllocateHugePages(n * sizeof(T)).release()));
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_HUGE_PAGES_H_
