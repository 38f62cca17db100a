// Measures the streaming read bandwidth several threads get together, the ceiling of a
// memory-bound decode step at that thread count.
#ifndef CPUBRRR_KERNELS_COMMON_PARALLEL_READ_BANDWIDTH_H_
#define CPUBRRR_KERNELS_COMMON_PARALLEL_READ_BANDWIDTH_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cpubrrr {

// Makes `repeats` passes over the `n` words of `data` with `threads` threads; in each pass
// thread i reads (with StreamRead) the i-th of `threads` consecutive parts, each a multiple
// of 64 words. Returns the seconds of each pass, from all threads starting to the last one
// finishing, and sets `checksum` to the sum of the threads' StreamRead results in the last
// pass. Preconditions: `data` is 64-byte aligned, `n` is a multiple of 64, threads >= 1,
// repeats >= 1.
std::vector<double> TimeParallelStreamRead(const uint64_t* data, size_t n, int threads,
                                           int repeats, uint64_t& checksum);

// Returns, for each of `thread_counts`, the best of `repeats` timed passes of that many
// threads over one fresh huge-page buffer of `bytes`, in GB/s (1e9 bytes per second). As
// with MeasureReadBandwidthGBs, use a buffer far larger than the last-level cache.
std::vector<double> MeasureParallelReadBandwidthGBs(size_t bytes, const std::vector<int>& thread_counts,
                                                    int repeats);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_PARALLEL_READ_BANDWIDTH_H_
