// Google Benchmark of every Q6_K variant on qwen3moe shapes: gemv and 16-token gemm, hot and
// cold; the repacked gemv and the repack.
#include <benchmark/benchmark.h>

#include "kernels/bench/repacked_bench.h"
#include "kernels/bench/kquant_bench_util.h"
#include "kernels/q6_k/q6_k.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "quant/q6_k.h"

namespace cpubrrr {
namespace {

// Keeps d finite: its random bits become a scale in 2^-14 .. 2^-4.
void FixScales(BlockQ6K& b) { b.d = bench::ScaleFromBits(b.d); }

// qwen3moe (Qwen3-30B-A3B) tensors that Q4_K_M files store as Q6_K: expert down
// (ffn_down_exps) and the output head (151936 vocabulary rows).
constexpr bench::Shape kShapes[] = {
    {"expert_down", 2048, 768},
    {"output_head", 151936, 2048},
};

// The repacked layout's pieces for bench::RegisterRepacked.
struct Q6KRepacked {
  using Block = BlockQ6K;
  using Shape = Q6KRepackedShape;
  static constexpr size_t kBlockValues = kQ6KBlockSize;
  static constexpr auto Repack = RepackQ6K;
  static constexpr auto Activations = bench::Q8KActivations;
  static constexpr auto Variants = AllQ6KRepackedVariants;
};

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) {
  using namespace cpubrrr;
  benchmark::Initialize(&argc, argv);
  const bench::Yardsticks ys = bench::MeasureYardsticks();
  for (const bench::Shape& shape : kShapes) {
    for (bool cold : {false, true}) {
      for (const Q6KKernels& k : AllQ6KVariants()) {
        // The scalar oracle only runs hot: cold, it would measure the ALU, not memory.
        if (cold && std::string(k.name) == "ref") continue;
        bench::RegisterShape<BlockQ6K>(k, shape, ys, cold, FixScales);
      }
    }
  }
  bench::RegisterRepacked<Q6KRepacked>("q6_k", kShapes, FixScales, ys.vnni_gmacs * 1e9);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
