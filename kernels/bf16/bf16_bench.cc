// Google Benchmark of every bf16-weight variant: gemv hot and cold, gemm, row fetch, in GB/s.
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "hwy/aligned_allocator.h"
#include "kernels/bf16/bf16.h"
#include "quant/bf16.h"

namespace cpubrrr {
namespace {

constexpr size_t kCols = 2880;        // gpt-oss embedding width
constexpr size_t kColdRows = 4096;    // gpt-oss q projection: 64 heads x 64
constexpr size_t kHotRows = 128;      // 737 KB of weights: stays in the 1 MiB L2
constexpr size_t kColdBytes = size_t{1} << 30;  // cycled through: beyond any cache

// Returns a buffer of at least n weights with realistic values (a 4096-value pattern).
hwy::AlignedFreeUniquePtr<uint16_t[]> Weights(size_t n) {
  std::mt19937 rng(7);
  std::normal_distribution<float> dist(0.0f, 0.05f);
  std::vector<uint16_t> pattern(4096);
  for (uint16_t& w : pattern) w = Fp32ToBf16(dist(rng));
  auto w = hwy::AllocateAligned<uint16_t>(n);
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

void Gemv(benchmark::State& state, const Bf16Kernels* k, size_t rows, size_t matrices) {
  const size_t matrix = rows * kCols;
  const auto w = Weights(matrix * matrices);
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

void Gemm(benchmark::State& state, const Bf16Kernels* k, size_t n_tokens) {
  const size_t rows = kHotRows;
  const auto w = Weights(rows * kCols);
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

void RowFetch(benchmark::State& state, const Bf16Kernels* k) {
  const auto w = Weights(kCols);
  std::vector<float> out(kCols);
  for (auto _ : state) {
    k->row_to_f32(w.get(), kCols, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  SetRate(state, 6.0 * kCols);
}

void RegisterAll() {
  const size_t cold_matrices = kColdBytes / (2 * kColdRows * kCols) + 1;
  for (const Bf16Kernels& k : AllBf16Variants()) {
    const std::string v = k.name;
    benchmark::RegisterBenchmark(("bf16_gemv/" + v + "/hot_128x2880").c_str(), Gemv, &k,
                                 kHotRows, size_t{1});
    benchmark::RegisterBenchmark(("bf16_gemv/" + v + "/cold_4096x2880").c_str(), Gemv, &k,
                                 kColdRows, cold_matrices);
    for (size_t t : {2, 8}) {
      benchmark::RegisterBenchmark(("bf16_gemm/" + v + "/hot_128x2880_t" + std::to_string(t)).c_str(),
                                   Gemm, &k, t);
    }
    benchmark::RegisterBenchmark(("bf16_row_to_f32/" + v + "/2880").c_str(), RowFetch, &k);
  }
}

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  cpubrrr::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
