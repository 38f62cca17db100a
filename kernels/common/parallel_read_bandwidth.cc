// Threads started once per measurement, released together for each timed pass by a barrier.
#include "kernels/common/parallel_read_bandwidth.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <thread>

#include "kernels/common/huge_pages.h"
#include "kernels/common/read_bandwidth.h"

namespace cpubrrr {

std::vector<double> TimeParallelStreamRead(const uint64_t* data, size_t n, int threads,
                                           int repeats, uint64_t& checksum) {
  const size_t blocks = n / 64;
  std::vector<uint64_t> sums(threads);
  std::vector<double> seconds;
  std::barrier sync(threads);
  // Thread `t` reads its part once per pass, between the barrier that starts the pass and
  // the one that ends it; thread 0 (the caller) times the pass.
  auto passes = [&](int t) {
    const size_t begin = blocks * t / threads * 64;
    const size_t end = blocks * (t + 1) / threads * 64;
    for (int r = 0; r < repeats; ++r) {
      sync.arrive_and_wait();
      const auto start = std::chrono::steady_clock::now();
      sums[t] = StreamRead(data + begin, end - begin);
      sync.arrive_and_wait();
      if (t == 0) {
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(passes, t);
  passes(0);
  for (std::thread& helper : helpers) helper.join();
  checksum = 0;
  for (uint64_t s : sums) checksum += s;
  return seconds;
}

std::vector<double> MeasureParallelReadBandwidthGBs(size_t bytes, const std::vector<int>& thread_counts,
                                                    int repeats) {
  const size_t n = bytes / sizeof(uint64_t) / 64 * 64;
  auto buffer = AllocateHugeArray<uint64_t>(n);
  for (size_t i = 0; i < n; ++i) buffer[i] = i;  // touch every page
  std::vector<double> gbs;
  for (int threads : thread_counts) {
    uint64_t checksum;
    const std::vector<double> seconds = TimeParallelStreamRead(buffer.get(), n, threads, repeats, checksum);
    gbs.push_back(n * sizeof(uint64_t) / *std::min_element(seconds.begin(), seconds.end()) / 1e9);
  }
  return gbs;
}

}  // namespace cpubrrr
