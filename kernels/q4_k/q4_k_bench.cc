// Google Benchmark of every Q4_K variant on qwen3moe shapes: gemv and 16-token gemm, hot and
// cold; the repacked gemv and gemm, and the repack.
#include <benchmark/benchmark.h>

#include "kernels/bench/repacked_bench.h"
#include "kernels/bench/kquant_bench_util.h"
#include "kernels/q4_k/q4_k.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "quant/q4_k.h"

namespace cpubrrr {
namespace {

// Keeps d and dmin finite: the random bits of each become a scale in 2^-14 .. 2^-4.
void FixScales(BlockQ4K& b) {
  b.d = bench::ScaleFromBits(b.d);
  b.dmin = bench::ScaleFromBits(b.dmin);
}

// qwen3moe (Qwen3-30B-A3B): expert gate and up fused (2 x 768 rows), expert down, and
// the attention projection size of 4096 x 2048.
constexpr bench::Shape kShapes[] = {
    {"expert_gate_up", 1536, 2048},
    {"expert_down", 2048, 768},
    {"attention", 4096, 2048},
};

// The repacked layout's pieces for bench::RegisterRepacked.
struct Q4KRepacked {
  using Block = BlockQ4K;
  using Shape = Q4KRepackedShape;
  static constexpr size_t kBlockValues = kQ4KBlockSize;
  static constexpr auto Repack = RepackQ4K;
  static constexpr auto Activations = bench::Q8KActivations;
  static constexpr auto Variants = AllQ4KRepackedVariants;
};

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) {
  using namespace cpubrrr;
  benchmark::Initialize(&argc, argv);
  const bench::Yardsticks ys = bench::MeasureYardsticks();
  for (const bench::Shape& shape : kShapes) {
    for (bool cold : {false, true}) {
      for (const Q4KKernels& k : AllQ4KVariants()) {
        // The scalar oracle only runs hot: cold, it would measure the ALU, not memory.
        if (cold && std::string(k.name) == "ref") continue;
        bench::RegisterShape<BlockQ4K>(k, shape, ys, cold, FixScales);
      }
    }
  }
  bench::RegisterRepacked<Q4KRepacked>("q4_k", kShapes, FixScales, ys.vnni_gmacs * 1e9);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
