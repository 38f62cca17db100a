// Benchmark helpers for block-dot kernels: weight sets for hot and cold runs, yardsticks,
// rate counters.
#ifndef CPUBRRR_KERNELS_BENCH_BENCH_UTIL_H_
#define CPUBRRR_KERNELS_BENCH_BENCH_UTIL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include <ctime>

#include "benchmark/benchmark.h"
#include "kernels/common/huge_pages.h"
#include "kernels/common/read_bandwidth.h"

namespace cpubrrr::bench {

// Bytes of weights a hot run touches: half of a 1 MiB L2, so the matrix stays in L2.
inline constexpr size_t kHotBytes = 512 * 1024;
// Bytes of weights a cold run cycles through: well beyond any last-level cache here.
inline constexpr size_t kColdBytes = size_t{320} << 20;

// Fills n bytes with a cheap pseudo-random sequence (xorshift), `fix` then adjusting each
// block so scales stay finite; filling hundreds of MiB must take well under a second.
template <typename Block, typename Fix>
void FillBlocks(Block* blocks, size_t count, uint64_t seed, Fix fix) {
  uint64_t s = seed | 1;
  auto* bytes = reinterpret_cast<uint8_t*>(blocks);
  const size_t n = count * sizeof(Block);
  for (size_t i = 0; i + 8 <= n; i += 8) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    std::memcpy(bytes + i, &s, 8);
  }
  for (size_t i = 0; i < count; ++i) fix(blocks[i]);
}

// Copies of one weight shape: `copies` matrices of rows x n_blocks, allocated contiguously
// and visited in a fixed shuffled order, so one matrix's end never runs on into the next
// one's start (decode, too, reads its experts' matrices from scattered places).
template <typename Block>
struct WeightSet {
  std::unique_ptr<Block[], HugePagesFree> data;
  size_t matrix_blocks = 0;
  size_t copies = 0;
  std::vector<size_t> order;  // a permutation of 0 .. copies - 1
  const Block* Matrix(size_t i) const { return data.get() + order[i % copies] * matrix_blocks; }
};

// Returns enough copies of a rows x n_blocks matrix to exceed `total_bytes` (at least 1).
template <typename Block, typename Fix>
WeightSet<Block> MakeWeightSet(size_t rows, size_t n_blocks, size_t total_bytes, Fix fix) {
  WeightSet<Block> set;
  set.matrix_blocks = rows * n_blocks;
  const size_t matrix_bytes = set.matrix_blocks * sizeof(Block);
  set.copies = (total_bytes + matrix_bytes - 1) / matrix_bytes;
  if (set.copies == 0) set.copies = 1;
  set.data = AllocateHugeArray<Block>(set.copies * set.matrix_blocks);
  FillBlocks(set.data.get(), set.copies * set.matrix_blocks, 0x9E3779B97F4A7C15ull, fix);
  set.order.resize(set.copies);
  std::iota(set.order.begin(), set.order.end(), size_t{0});
  std::shuffle(set.order.begin(), set.order.end(), std::mt19937(5));
  return set;
}

// Returns the weight set of one shape, each block passed through `fix` (to keep fp16
// scales finite). The last set is cached, so benchmarks of one shape (registered together)
// share it, only one cold set is alive at a time, and every repetition after a set's first
// reads pages that were not just written, as a model's weights are not (on this VM runs on
// freshly written sets read faster; the hypervisor's page re-validation is the likely
// cause, research log).
template <typename Block>
const WeightSet<Block>& CachedWeightSet(size_t rows, size_t n_blocks, size_t total_bytes,
                                        void (*fix)(Block&)) {
  static size_t cached_rows = 0, cached_blocks = 0, cached_bytes = 0;
  static WeightSet<Block> set;
  if (rows != cached_rows || n_blocks != cached_blocks || total_bytes != cached_bytes) {
    set = WeightSet<Block>();  // frees the previous set first
    set = MakeWeightSet<Block>(rows, n_blocks, total_bytes, fix);
    cached_rows = rows, cached_blocks = n_blocks, cached_bytes = total_bytes;
  }
  return set;
}

// Returns the number of rows of a hot run: as many as fit in kHotBytes, rounded down to a
// multiple of 16 (every row tile and repacked group divides it), at most `rows`.
inline size_t HotRows(size_t rows, size_t row_bytes) {
  const size_t fit = kHotBytes / row_bytes / 16 * 16;
  return fit < rows ? fit : rows;
}

// Returns this thread's CPU time in seconds. On a shared, loaded machine CPU time leaves
// out the time other processes hold the core, so kernel rates and yardsticks measured in
// it compare fairly; Google Benchmark's counters use it too unless told otherwise.
inline double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Returns the best of `repeats` single-thread streaming reads (StreamRead) of the n words
// at `data`, in GB/s of thread CPU time, timed like the benchmarks it is compared with.
inline double BestStreamReadCpuGBs(const uint64_t* data, size_t n, int repeats) {
  double best = 0.0;
  volatile uint64_t sink = 0;
  for (int r = 0; r < repeats; ++r) {
    const double start = ThreadCpuSeconds();
    sink = sink + StreamRead(data, n);
    const double gbs = static_cast<double>(n * sizeof(uint64_t)) / (ThreadCpuSeconds() - start) / 1e9;
    best = gbs > best ? gbs : best;
  }
  return best;
}

// Returns BestStreamReadCpuGBs of a fresh `bytes` buffer: MeasureReadBandwidthGBs's
// yardstick in thread CPU time.
inline double MeasureReadBandwidthCpuGBs(size_t bytes, int repeats) {
  const size_t n = bytes / sizeof(uint64_t) / 64 * 64;
  auto buffer = AllocateHugeArray<uint64_t>(n);
  for (size_t i = 0; i < n; ++i) buffer[i] = i;
  return BestStreamReadCpuGBs(buffer.get(), n, repeats);
}

// The read yardstick of a cold benchmark, sampled through its timed loop: after each
// iteration (Step), for every kChunkBytes the kernel has read since the last sample,
// timing pauses and the next 8 MiB chunk of a 256 MiB buffer (so each chunk comes from
// memory) is streamed (StreamRead) in thread CPU time. GBs() is all chunks' bytes over
// their time, the same statistic as the kernel's rate, taken in the same moments. On the
// Zen 5 VM of issue #3 one thread's bandwidth swings widely from one pass to the next; the
// best of three passes taken before the loop (the earlier yardstick) sat above the mean the
// kernel met, and StreamRead itself, timed as a kernel over a cold set, fell short of it on
// average, while it reads about as fast as this one (research log).
class SampledYardstick {
 public:
  static constexpr size_t kChunkBytes = size_t{8} << 20;

  SampledYardstick(benchmark::State& state, double kernel_bytes_per_iteration)
      : state_(state), kernel_bytes_(kernel_bytes_per_iteration) {}

  void Step() {
    owed_ += kernel_bytes_;
    if (owed_ < kChunkBytes) return;
    state_.PauseTiming();
    for (; owed_ >= kChunkBytes; owed_ -= kChunkBytes) Sample();
    state_.ResumeTiming();
  }

  // Returns the sampled read rate in GB/s (sampling one chunk if the loop took none).
  double GBs() {
    if (bytes_ == 0) Sample();
    return bytes_ / seconds_ / 1e9;
  }

 private:
  static constexpr size_t kBufferWords = (size_t{256} << 20) / sizeof(uint64_t);
  static constexpr size_t kChunkWords = kChunkBytes / sizeof(uint64_t);

  // The buffer lives for the whole run and is touched once: a fresh one reads slower on
  // its first passes.
  static const uint64_t* Buffer() {
    static const std::unique_ptr<uint64_t[], HugePagesFree> buffer = [] {
      auto b = AllocateHugeArray<uint64_t>(kBufferWords);
      for (size_t i = 0; i < kBufferWords; ++i) b[i] = i;
      return b;
    }();
    return buffer.get();
  }

  void Sample() {
    static size_t next_chunk = 0;
    const uint64_t* chunk = Buffer() + (next_chunk++ % (kBufferWords / kChunkWords)) * kChunkWords;
    const double start = ThreadCpuSeconds();
    benchmark::DoNotOptimize(StreamRead(chunk, kChunkWords));
    seconds_ += ThreadCpuSeconds() - start;
    bytes_ += kChunkBytes;
  }

  benchmark::State& state_;
  const double kernel_bytes_;
  double owed_ = 0, bytes_ = 0, seconds_ = 0;
};

// Sets the counters of a gemv or gemm benchmark whose iterations each read `bytes` and do
// `macs` int8 multiply-adds: GB/s; with read_gbs > 0 (a cold run's SampledYardstick) that
// yardstick and pct_of_bw (the two compared); and with vnni_macs (MACs per second) > 0 and
// n_tokens > 1 pct_of_vnni.
inline void SetRateCounters(benchmark::State& state, double bytes, double read_gbs, double macs,
                            double vnni_macs, size_t n_tokens) {
  using C = benchmark::Counter;
  state.counters["GB/s"] = C(bytes / 1e9, C::kIsIterationInvariantRate);
  if (read_gbs > 0) {
    state.counters["read_GB/s"] = read_gbs;
    state.counters["pct_of_bw"] = C(bytes / 1e9 / read_gbs * 100, C::kIsIterationInvariantRate);
  }
  if (vnni_macs > 0 && n_tokens > 1) {
    state.counters["pct_of_vnni"] = C(macs / vnni_macs * 100, C::kIsIterationInvariantRate);
  }
}

// Streams each matrix of the cold `set` (StreamRead over its bytes, rounded down to whole
// 512-byte steps) per iteration, against a SampledYardstick: what a kernel that only reads
// its weights scores in pct_of_bw, the ceiling of every cold gemv of that shape.
template <typename Block>
void RunStreamReadControl(benchmark::State& state, const WeightSet<Block>& set) {
  const size_t words = set.matrix_blocks * sizeof(Block) / 512 * 64;
  const double bytes = static_cast<double>(words * sizeof(uint64_t));
  SampledYardstick yardstick(state, bytes);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(StreamRead(reinterpret_cast<const uint64_t*>(set.Matrix(i++)), words));
    yardstick.Step();
  }
  SetRateCounters(state, bytes, yardstick.GBs(), 0, 0, 1);
}

}  // namespace cpubrrr::bench

#endif  // CPUBRRR_KERNELS_BENCH_BENCH_UTIL_H_
