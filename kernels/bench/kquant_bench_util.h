// Google Benchmark harness shared by the K-quant benchmarks: shapes, hot/cold, counters.
#ifndef CPUBRRR_KERNELS_BENCH_KQUANT_BENCH_UTIL_H_
#define CPUBRRR_KERNELS_BENCH_KQUANT_BENCH_UTIL_H_

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/common/cpu_features.h"
#include "kernels/bench/bench_util.h"
#include "kernels/common/huge_pages.h"
#include "kernels/common/read_bandwidth.h"
#include "kernels/bench/vnni_peak.h"
#include "quant/fp16.h"
#include "quant/q8_k.h"

namespace cpubrrr::bench {

// One weight matrix shape from the target models: rows x cols (a multiple of 256).
struct Shape {
  const char* name;
  size_t rows;
  size_t cols;
};

// Yardsticks measured once per run, printed for reference (cold runs compare with a
// SampledYardstick, taken through their timed loop). The benchmarks report rates per thread CPU
// time, which on a shared, oversubscribed machine leaves out time spent descheduled; the
// read bandwidths are measured the same way, read_wall_gbs (MeasureReadBandwidthGBs) on
// the wall clock.
struct Yardsticks {
  double read_gbs = 0;
  double read_wall_gbs = 0;
  double vnni_gmacs = 0;  // 0 when the CPU has no AVX-512 VNNI
};

// Returns the yardsticks, printing them and adding them to the benchmark context.
inline Yardsticks MeasureYardsticks() {
  Yardsticks y;
  y.read_gbs = MeasureReadBandwidthCpuGBs(size_t{1} << 30, 5);
  y.read_wall_gbs = MeasureReadBandwidthGBs(size_t{1} << 30, 5);
#if defined(__x86_64__)
  if (HasFeatures(DetectCpuFeatures(), kCpuAvx512 | kCpuAvx512Vnni)) y.vnni_gmacs = MeasureVnniPeakMacsPerSecond(30) / 1e9;
#endif
  benchmark::AddCustomContext("read_bw_1thread_cpu_time_GBs", std::to_string(y.read_gbs));
  benchmark::AddCustomContext("read_bw_1thread_wall_GBs", std::to_string(y.read_wall_gbs));
  benchmark::AddCustomContext("vnni_peak_1thread_GMACs", std::to_string(y.vnni_gmacs));
  std::printf("single-thread read bandwidth %.2f GB/s per CPU second (%.2f GB/s wall), "
              "VNNI peak %.1f GMAC/s per CPU second\n",
              y.read_gbs, y.read_wall_gbs, y.vnni_gmacs);
  return y;
}

// Returns a fp16 scale in 2^-14 .. 2^-4 made from 16 random bits (random fp16 bits could
// be infinities or NaNs).
inline uint16_t ScaleFromBits(uint16_t bits) {
  return Fp32ToFp16(1.0f / 16384 + (1.0f / 16 - 1.0f / 16384) * static_cast<float>(bits) / 65535.0f);
}

// Returns n Q8_K activation blocks quantized from standard normal values.
inline std::vector<BlockQ8K> Q8KActivations(size_t n) {
  std::mt19937 rng(2);
  std::normal_distribution<float> normal;
  std::vector<float> f(n * 256);
  for (float& v : f) v = normal(rng);
  std::vector<BlockQ8K> x(n);
  QuantizeRowQ8K(f.data(), x.data(), static_cast<int64_t>(f.size()));
  return x;
}

// Registers gemv and 16-token gemm benchmarks of one kernel table on one shape, hot (cut
// to kHotBytes) or cold (cycling through > kColdBytes). `Kernels` has name, required,
// gemv and gemm; `Block` is its weight block type. A cold run is compared with the read
// yardstick sampled through its timed loop (SampledYardstick).
template <typename Block, typename Kernels>
void RegisterShape(const Kernels& k, const Shape& shape, const Yardsticks& ys, bool cold,
                   void (*fix)(Block&)) {
  if (!HasFeatures(DetectCpuFeatures(), k.required)) return;
  const size_t n_blocks = shape.cols / 256;
  const size_t row_bytes = n_blocks * sizeof(Block);
  const size_t rows = cold ? shape.rows : std::min(shape.rows, kHotBytes / row_bytes);
  const size_t matrix_bytes = rows * row_bytes;
  for (size_t tokens : {size_t{1}, size_t{4}, size_t{16}}) {
    const std::string name = std::string(k.name) + "/" + shape.name + "/" + std::to_string(rows) +
                             "x" + std::to_string(shape.cols) + "/" +
                             (tokens == 1 ? std::string("gemv") : "gemm" + std::to_string(tokens)) + "/" + (cold ? "cold" : "hot");
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
      const WeightSet<Block>& w = CachedWeightSet<Block>(rows, n_blocks, cold ? kColdBytes : 0, fix);
      const std::vector<BlockQ8K> x = Q8KActivations(tokens * n_blocks);
      std::vector<float> y(tokens * rows);
      const double bytes_per_iter =
          static_cast<double>(matrix_bytes + tokens * n_blocks * sizeof(BlockQ8K));
      SampledYardstick yardstick(state, bytes_per_iter);
      size_t c = 0;
      for (auto _ : state) {
        const Block* wc = w.Matrix(c++);
        if (tokens == 1) {
          k.gemv(wc, n_blocks, rows, x.data(), n_blocks, y.data());
        } else {
          k.gemm(wc, n_blocks, rows, x.data(), n_blocks, tokens, n_blocks,
                 y.data(), rows);
        }
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
        if (cold) yardstick.Step();
      }
      const double macs_per_iter = static_cast<double>(tokens * rows * n_blocks * 256);
      using benchmark::Counter;
      state.counters["GB/s"] = Counter(bytes_per_iter / 1e9, Counter::kIsIterationInvariantRate);
      state.counters["GMAC/s"] = Counter(macs_per_iter / 1e9, Counter::kIsIterationInvariantRate);
      if (cold) {
        const double read_gbs = yardstick.GBs();
        state.counters["read_GB/s"] = read_gbs;
        state.counters["pct_of_bw"] =
            Counter(100 * bytes_per_iter / 1e9 / read_gbs, Counter::kIsIterationInvariantRate);
      }
      if (tokens > 1 && ys.vnni_gmacs > 0) {
        state.counters["pct_of_vnni"] =
            Counter(100 * macs_per_iter / 1e9 / ys.vnni_gmacs, Counter::kIsIterationInvariantRate);
      }
    })->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace cpubrrr::bench

#endif  // CPUBRRR_KERNELS_BENCH_KQUANT_BENCH_UTIL_H_
