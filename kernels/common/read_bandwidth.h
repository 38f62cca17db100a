// Measures the streaming read bandwidth one thread gets, the yardstick for cold kernels.
#ifndef CPUBRRR_KERNELS_COMMON_READ_BANDWIDTH_H_
#define CPUBRRR_KERNELS_COMMON_READ_BANDWIDTH_H_

#include <cstddef>
#include <cstdint>

namespace cpubrrr {

// Reads `n` 64-bit words with the widest vectors the CPU has and returns a checksum of
// them (per vector lane their XOR, then the lanes' sum: a single non-zero word comes back
// unchanged), which keeps the loads from being optimized away. Precondition: `data` is
// 64-byte aligned and `n` is a multiple of 64.
uint64_t StreamRead(const uint64_t* data, size_t n);

// Returns the best of `repeats` timed single-thread passes over a fresh huge-page buffer of
// `bytes`, in GB/s (1e9 bytes per second). Use a buffer far larger than the last-level
// cache (e.g. 1 GiB) to measure memory rather than cache.
double MeasureReadBandwidthGBs(size_t bytes, int repeats);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_READ_BANDWIDTH_H_
