// Reads a mapped file into memory ahead of use, reporting progress.
#ifndef CPUBRRR_RUNTIME_GGUF_PAGE_IN_H_
#define CPUBRRR_RUNTIME_GGUF_PAGE_IN_H_

#include <cstdint>
#include <functional>

#include "absl/types/span.h"

namespace cpubrrr {

// Faults every page of `mapped` (a read-only file mapping) in, in chunks, calling
// `progress` (if set) with the fraction done after each chunk. Through a MADV_HUGEPAGE
// mapping, pages the page cache does not hold yet are read as 2 MiB folios. Uses
// MADV_POPULATE_READ where the kernel has it, else reads one byte per page.
void PageIn(absl::Span<const uint8_t> mapped, const std::function<void(double)>& progress);

// Returns MemAvailable from /proc/meminfo in bytes, or 0 when it cannot be read.
uint64_t AvailableMemoryBytes();

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_PAGE_IN_H_
