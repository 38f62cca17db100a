// Google Benchmark harness shared by the half-precision weight kernels (bf16, f16): gemv hot
// and cold, gemm, row fetch, in GB/s. Include from one benchmark main per format.
#ifndef CPUBRRR_KERNELS_BENCH_HALF_BENCH_INL_H_
#define CPUBRRR_KERNELS_BENCH_HALF_BENCH_INL_H_

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "kernels/common/huge_pages.h"

namespace cpubrrr {
namespace half_bench {

constexpr size_t kCols = 2880;        // gpt-oss embedding width
constexpr size_t kColdRows = 4096;    // gpt-oss q projection: 64 heads x 64
constexpr size_t kHotRows = 128;      // 737 KB of weights: stays in the 1 MiB L2
constexpr size_t kColdBytes = size_t{1} << 30;  // cycled through: beyond any cache

// Returns a buffer of at least n weights with realistic values (a 4096-value pattern),
// converted to half precision by `to_half`.
std::unique_ptr<uint16_t[], HugePagesFree> Weights(size_t n, uint16_t (*to_half)(float)) {
  std::mt19937 rng(7);
  std::normal_distribution<float> dist(0.0f, 0.05f);
  std::vector<uint16_t> pattern(4096);
  for (uint16_t& w : pattern) w = to_half(dist(rng));
  auto w = AllocateHugeArray<uint16_t>(n);
  for (size_t i = 0; i < n; ++i) w[i] = pattern[(i * 2654435761u) % pattern.size()];
  return w;
}

std::vector<float> Activations(size_t n) {
  std::mt19937 rng(8);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> x(n);
  for (float& v : x) v = dist(rng);
  return x;
}

// Counts weight bytes plus activation bytes per call as GB/s.
void SetRate(benchmark::State& state, double bytes_per_call) {
  state.counters["GB/s"] = benchmark::Counter(bytes_per_call * state.iterations() / 1e9,
                                              benchmark::Counter::kIsRate);
}

template <typename Kernels>
void Gemv(benchmark::State& state, const Kernels* k, uint16_t (*to_half)(float), size_t rows,
          size_t matrices) {
  const size_t matrix = rows * kCols;
  const auto w = Weights(matrix * matrices, to_half);
  const std::vector<float> x = Activations(kCols);
  std::vector<float> y(rows);
  size_t m = 0;
  for (auto _ : state) {
    k->gemv(w.get() + m * matrix, kCols, rows, x.data(), kCols, y.data());
    benchmark::DoNotOptimize(y.data());
    m = m + 1 == matrices ? 0 : m + 1;
  }
  SetRate(state, 2.0 * matrix + 4.0 * kCols);
}

template <typename Kernels>
void Gemm(benchmark::State& state, const Kernels* k, uint16_t (*to_half)(float), size_t n_tokens) {
  const size_t rows = kHotRows;
  const auto w = Weights(rows * kCols, to_half);
  const std::vector<float> x = Activations(n_tokens * kCols);
  std::vector<float> y(n_tokens * rows);
  for (auto _ : state) {
    k->gemm(w.get(), kCols, rows, x.data(), kCols, n_tokens, kCols, y.data(), rows);
    benchmark::DoNotOptimize(y.data());
  }
  SetRate(state, 2.0 * rows * kCols + 4.0 * n_tokens * kCols);
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * rows * kCols * n_tokens * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

template <typename Kernels>
void RowFetch(benchmark::State& state, const Kernels* k, uint16_t (*to_half)(float)) {
  const auto w = Weights(kCols, to_half);
  std::vector<float> out(kCols);
  for (auto _ : state) {
    k->row_to_f32(w.get(), kCols, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  SetRate(state, 6.0 * kCols);
}

}  // namespace half_bench

// Registers gemv hot and cold, gemm and row-fetch benchmarks named "<prefix>_gemv/<variant>/..."
// for every variant in `variants`, whose weights are made by `to_half`.
template <typename Kernels>
void RegisterHalfBenchmarks(const std::string& prefix, std::span<const Kernels> variants,
                            uint16_t (*to_half)(float)) {
  using namespace half_bench;
  const size_t cold_matrices = kColdBytes / (2 * kColdRows * kCols) + 1;
  for (const Kernels& k : variants) {
    const std::string v = k.name;
    benchmark::RegisterBenchmark((prefix + "_gemv/" + v + "/hot_128x2880").c_str(), Gemv<Kernels>,
                                 &k, to_half, kHotRows, size_t{1});
    benchmark::RegisterBenchmark((prefix + "_gemv/" + v + "/cold_4096x2880").c_str(),
                                 Gemv<Kernels>, &k, to_half, kColdRows, cold_matrices);
    for (size_t t : {2, 8}) {
      benchmark::RegisterBenchmark(
          (prefix + "_gemm/" + v + "/hot_128x2880_t" + std::to_string(t)).c_str(), Gemm<Kernels>,
          &k, to_half, t);
    }
    benchmark::RegisterBenchmark((prefix + "_row_to_f32/" + v + "/2880").c_str(),
                                 RowFetch<Kernels>, &k, to_half);
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_BENCH_HALF_BENCH_INL_H_
