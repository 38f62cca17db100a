// Benchmarks of the repacked kernels (kernels/mxfp4, kernels/q8_0, kernels/q4_k,
// kernels/q6_k) in the harness of bench_util.h: the gemv or gemm on repacked copies, and
// the repack itself.
#ifndef CPUBRRR_KERNELS_BENCH_REPACKED_BENCH_H_
#define CPUBRRR_KERNELS_BENCH_REPACKED_BENCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "kernels/bench/bench_util.h"
#include "kernels/common/cpu_features.h"
#include "kernels/common/huge_pages.h"
#include "kernels/common/repacked_layout.h"
#include "quant/q8_0.h"

namespace cpubrrr::bench {

// `Format` provides Block, kBlockValues (values per block), Shape (a RepackedShape),
// Repack, Activations (n blocks of random activations) and Variants(): the repacked
// kernels (RepackedVariant, kernels/common/repacked_variant.h); `fix` keeps random weight
// blocks' scales finite.

// Returns n Q8_0 activation blocks of random quants (-127..127), all with scale 2^-7.
inline std::vector<BlockQ8_0> Q8_0Activations(size_t n) {
  std::vector<BlockQ8_0> x(n);
  FillBlocks(x.data(), x.size(), 7, [](BlockQ8_0& b) {
    b.d = 0x2000;
    for (int8_t& q : b.qs) q = q == -128 ? 0 : q;
  });
  return x;
}

// Returns the copies of `set` (rows x n_blocks each) repacked, visited in the same order.
// The last result is cached, as CachedWeightSet caches its sets (and for the same reason).
template <class Format>
const WeightSet<uint8_t>& CachedRepackedSet(const WeightSet<typename Format::Block>& set,
                                            size_t rows, size_t n_blocks) {
  static const void* cached_source = nullptr;
  static size_t cached_rows = 0, cached_blocks = 0, cached_copies = 0;
  static WeightSet<uint8_t> packed;
  if (set.data.get() == cached_source && rows == cached_rows && n_blocks == cached_blocks &&
      set.copies == cached_copies) {
    return packed;
  }
  const typename Format::Shape shape{rows, n_blocks};
  packed = WeightSet<uint8_t>();  // frees the previous copies first
  packed.matrix_blocks = shape.Bytes();
  packed.copies = set.copies;
  packed.data = AllocateHugeArray<uint8_t>(set.copies * packed.matrix_blocks);
  packed.order = set.order;
  for (size_t c = 0; c < set.copies; ++c) {
    Format::Repack(set.data.get() + c * set.matrix_blocks, n_blocks, rows, n_blocks,
                   packed.data.get() + c * packed.matrix_blocks);
  }
  cached_source = set.data.get(), cached_rows = rows, cached_blocks = n_blocks;
  cached_copies = set.copies;
  return packed;
}

// The repacked gemv (n_tokens 1) or gemm on `rows` x n_blocks weights, hot (rows cut to fit
// L2) or cold (copies of more than kColdBytes, visited in a fixed shuffled order), with
// GB/s of the GGUF layout (so rates compare with the other variants'), cold the share of
// the read yardstick sampled alongside, and with vnni_macs > 0 the share of the VNNI peak.
template <class Format, class Variant, class Fix>
void RunRepacked(benchmark::State& state, const Variant& k, size_t shape_rows, size_t n_blocks,
                 size_t n_tokens, bool cold, Fix fix, double vnni_macs) {
  using Block = typename Format::Block;
  const size_t rows = cold ? shape_rows : HotRows(shape_rows, n_blocks * sizeof(Block));
  const auto& set = CachedWeightSet<Block>(rows, n_blocks, cold ? kColdBytes : 0, fix);
  const typename Format::Shape shape{rows, n_blocks};
  const WeightSet<uint8_t>& packed = CachedRepackedSet<Format>(set, rows, n_blocks);
  const auto x = Format::Activations(n_tokens * n_blocks);
  const size_t y_stride = shape.Groups() * Format::Shape::kGroupRows;
  std::vector<float> y(n_tokens * y_stride);
  const double bytes = static_cast<double>(rows * n_blocks * sizeof(Block) + x.size() * sizeof(x[0]));
  SampledYardstick yardstick(state, bytes);
  size_t i = 0;
  for (auto _ : state) {
    const uint8_t* w = packed.Matrix(i++);
    if (n_tokens == 1) {
      k.gemv(w, shape, 0, shape.Groups(), x.data(), y.data());
    } else {
      k.gemm(w, shape, 0, shape.Groups(), x.data(), n_blocks, n_tokens, y.data(), y_stride);
    }
    benchmark::DoNotOptimize(y.data());
    if (cold) yardstick.Step();
  }
  const double macs = static_cast<double>(rows) * n_blocks * Format::kBlockValues * n_tokens;
  SetRateCounters(state, bytes, cold ? yardstick.GBs() : 0, macs, vnni_macs, n_tokens);
  state.SetLabel(std::to_string(rows) + " rows, " + std::to_string(set.copies) + " copies");
}

// The portable repack of one rows x n_blocks matrix per iteration (each the next of the
// cold copies), in GB/s of the GGUF layout read.
template <class Format, class Fix>
void RunRepack(benchmark::State& state, size_t rows, size_t n_blocks, Fix fix) {
  using Block = typename Format::Block;
  const auto& set = CachedWeightSet<Block>(rows, n_blocks, kColdBytes, fix);
  auto out = AllocateHugeArray<uint8_t>(typename Format::Shape{rows, n_blocks}.Bytes());
  Format::Repack(set.Matrix(0), n_blocks, rows, n_blocks, out.get());  // faults `out` in
  size_t i = 1;
  for (auto _ : state) {
    Format::Repack(set.Matrix(i++), n_blocks, rows, n_blocks, out.get());
    benchmark::DoNotOptimize(out.get());
  }
  const double bytes = static_cast<double>(rows * n_blocks * sizeof(Block));
  state.counters["GB/s"] = benchmark::Counter(bytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

// Registers, for each of `shapes` (members name, rows, cols), "<format>/repack/<name>", the
// control "<format>/stream_read/<name>/cold" (RunStreamReadControl on the shape's cold
// copies) and, for each variant this CPU runs, "<format>/<variant>_repacked/<name>/
// <gemv|gemm2|gemm3|gemm4|gemm16>/<hot|cold>" (no gemv for a variant without one).
template <class Format, class Shapes, class Fix>
void RegisterRepacked(const std::string& format, const Shapes& shapes, Fix fix, double vnni_macs) {
  using Block = typename Format::Block;
  for (const auto& s : shapes) {
    const size_t n_blocks = s.cols / Format::kBlockValues;
    benchmark::RegisterBenchmark((format + "/repack/" + s.name).c_str(), [s, n_blocks, fix](benchmark::State& st) {
      RunRepack<Format>(st, s.rows, n_blocks, fix);
    })->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((format + "/stream_read/" + s.name + "/cold").c_str(),
                                 [s, n_blocks, fix](benchmark::State& st) {
      RunStreamReadControl(st, CachedWeightSet<Block>(s.rows, n_blocks, kColdBytes, fix));
    })->Unit(benchmark::kMicrosecond);
  }
  for (const auto& k : Format::Variants()) {
    if (!HasFeatures(DetectCpuFeatures(), k.required)) continue;
    for (const auto& s : shapes) {
      for (size_t n_tokens : {size_t{1}, size_t{2}, size_t{3}, size_t{4}, size_t{16}}) {
        if (n_tokens == 1 && k.gemv == nullptr) continue;
        for (bool cold : {false, true}) {
          const std::string name = format + "/" + k.name + "_repacked/" + s.name +
                                   (n_tokens == 1 ? std::string("/gemv") : "/gemm" + std::to_string(n_tokens)) + (cold ? "/cold" : "/hot");
          benchmark::RegisterBenchmark(name.c_str(), [&k, s, n_tokens, cold, fix, vnni_macs](benchmark::State& st) {
            RunRepacked<Format>(st, k, s.rows, s.cols / Format::kBlockValues, n_tokens, cold, fix, vnni_macs);
          })->Unit(benchmark::kMicrosecond);
        }
      }
    }
  }
}

}  // namespace cpubrrr::bench

#endif  // CPUBRRR_KERNELS_BENCH_REPACKED_BENCH_H_
