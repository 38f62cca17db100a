// Reads a mapped file into memory ahead of use, reporting progress.
#ifndef CPUBRRR_RUNTIME_GGUF_PAGE_IN_H_
#define CPUBRRR_RUNTIME_GGUF_PAGE_IN_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/types/span.h"

namespace cpubrrr {

// Faults every page of `mapped` (a read-only file mapping) in, in chunks, calling
// `progress` (if set) with the fraction done after each chunk. Through a MADV_HUGEPAGE
// mapping, pages the page cache does not hold yet are read as 2 MiB folios. Uses
// MADV_POPULATE_READ where the kernel has it, else reads one byte per page.
void PageIn(absl::Span<const uint8_t> mapped, const std::function<void(double)>& progress);

// Returns the memory this process may still fill: MemAvailable from /proc/meminfo, capped
// by the memory limit of its cgroup (a container's limit does not show in /proc/meminfo);
// 0 when /proc/meminfo cannot be read.
uint64_t AvailableMemoryBytes();

// Returns the smallest memory limit of the cgroups listed in `proc_self_cgroup` (the
// format of /proc/self/cgroup), read under `sys_cgroup` (where /sys/fs/cgroup is): cgroup
// v1 `memory/<path>/memory.limit_in_bytes`, v2 `<path>/memory.max` or
// `unified/<path>/memory.max`, each also tried at the hierarchy's root (a container sees
// its own cgroup there). UINT64_MAX when no limit is set or none can be read.
uint64_t CgroupMemoryLimitBytes(const std::string& proc_self_cgroup,
                                const std::string& sys_cgroup);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_PAGE_IN_H_
