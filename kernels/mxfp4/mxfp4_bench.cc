// Google Benchmark of every MXFP4 x Q8_0 variant (and of the AVX-512 kernels on repacked
// weights, and the repack) on gpt-oss expert shapes, hot and cold, with GB/s, the share
// of this run's single-thread read bandwidth and of the VNNI peak.
// Rates are per second of thread CPU time (Google Benchmark's default), and so are the
// yardsticks, because the shared machine preempts wall-clock runs. The read bandwidth is
// measured once at start-up (printed, with MeasureReadBandwidthGBs's wall-clock figure);
// cold runs sample it through their timed loop (bench::SampledYardstick), and pct_of_bw
// divides by that.
#include <cstdio>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "kernels/bench/bench_util.h"
#include "kernels/common/cpu_features.h"
#include "kernels/bench/repacked_bench.h"
#include "kernels/common/read_bandwidth.h"
#include "kernels/bench/vnni_peak.h"
#include "kernels/mxfp4/mxfp4.h"
#include "kernels/mxfp4/mxfp4_repacked.h"

namespace cpubrrr {
namespace {

double g_vnni_macs = 0.0;  // int8 MACs per second of vpdpbusd, measured at start-up

struct Shape {
  const char* name;
  size_t rows, cols;
};

// gpt-oss-20b expert matrices (d = 2880, expert FFN 2880; gate and up fused).
constexpr Shape kShapes[] = {{"gate_up_5760x2880", 5760, 2880}, {"down_2880x2880", 2880, 2880}};

// Keeps random exponents in 118..133, so results stay finite.
void FixExponent(BlockMxfp4& b) { b.e = static_cast<uint8_t>(118 + (b.e & 15)); }

// Runs one variant on one shape: gemv (n_tokens 1) or gemm, over hot rows (a slice that
// fits in L2) or cold copies (cycled, > 256 MiB in total).
void Run(benchmark::State& state, const Mxfp4Kernels& k, Shape shape, size_t n_tokens,
         bool cold) {
  const size_t n_blocks = shape.cols / kMxfp4BlockSize;
  const size_t rows = cold ? shape.rows : bench::HotRows(shape.rows, n_blocks * sizeof(BlockMxfp4));
  const auto& set = bench::CachedWeightSet<BlockMxfp4>(rows, n_blocks, cold ? bench::kColdBytes : 0, FixExponent);
  const std::vector<BlockQ8_0> x = bench::Q8_0Activations(n_tokens * n_blocks);
  std::vector<float> y(n_tokens * rows);
  const double bytes = static_cast<double>(rows * n_blocks * sizeof(BlockMxfp4) +
                                           x.size() * sizeof(BlockQ8_0));
  bench::SampledYardstick yardstick(state, bytes);
  size_t i = 0;
  for (auto _ : state) {
    const BlockMxfp4* w = set.Matrix(i++);
    if (n_tokens == 1) {
      k.gemv(w, n_blocks, rows, x.data(), n_blocks, y.data());
    } else {
      k.gemm(w, n_blocks, rows, x.data(), n_blocks, n_tokens, n_blocks, y.data(), rows);
    }
    benchmark::DoNotOptimize(y.data());
    if (cold) yardstick.Step();
  }
  const double macs = static_cast<double>(rows) * shape.cols * n_tokens;
  bench::SetRateCounters(state, bytes, cold ? yardstick.GBs() : 0, macs, g_vnni_macs, n_tokens);
  state.SetLabel(std::to_string(rows) + " rows, " + std::to_string(set.copies) + " copies");
}

// The repacked layout's pieces for bench::RunRepacked and bench::RunRepack.
struct Mxfp4Repacked {
  using Block = BlockMxfp4;
  using Shape = Mxfp4RepackedShape;
  static constexpr size_t kBlockValues = kMxfp4BlockSize;
  static constexpr auto Repack = RepackMxfp4;
  static constexpr auto Activations = bench::Q8_0Activations;
  static constexpr auto Variants = AllMxfp4RepackedVariants;
};

void RegisterAll() {
  const CpuFeatures have = DetectCpuFeatures();
  for (const Mxfp4Kernels& k : AllMxfp4Variants()) {
    if (!HasFeatures(have, k.required)) continue;
    for (const Shape& s : kShapes) {
      for (size_t n_tokens : {size_t{1}, size_t{2}, size_t{4}, size_t{16}}) {
        for (bool cold : {false, true}) {
          // The scalar oracle is for correctness; time it hot only.
          if (cold && std::string(k.name) == "ref") continue;
          const std::string name = std::string("mxfp4/") + k.name + "/" + s.name +
                                   (n_tokens == 1 ? std::string("/gemv") : "/gemm" + std::to_string(n_tokens)) + (cold ? "/cold" : "/hot");
          benchmark::RegisterBenchmark(name.c_str(), [&k, s, n_tokens, cold](benchmark::State& st) {
            Run(st, k, s, n_tokens, cold);
          })->Unit(benchmark::kMicrosecond);
        }
      }
    }
  }
  bench::RegisterRepacked<Mxfp4Repacked>("mxfp4", kShapes, FixExponent, g_vnni_macs);
}

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const double wall_gbs = cpubrrr::MeasureReadBandwidthGBs(size_t{1} << 30, 5);
  const double cpu_gbs = cpubrrr::bench::MeasureReadBandwidthCpuGBs(size_t{1} << 30, 5);
  if (cpubrrr::HasFeatures(cpubrrr::DetectCpuFeatures(),
                           cpubrrr::kCpuAvx512 | cpubrrr::kCpuAvx512Vnni)) {
    cpubrrr::g_vnni_macs = cpubrrr::MeasureVnniPeakMacsPerSecond(3);
  }
  std::printf(
      "read bandwidth, 1 thread: %.2f GB/s per CPU second (%.2f GB/s wall clock); "
      "vpdpbusd peak: %.1f G int8 MAC per CPU second\n",
      cpu_gbs, wall_gbs, cpubrrr::g_vnni_macs / 1e9);
  cpubrrr::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
