// Google Benchmark of every Q5_K variant on qwen3moe shapes (those of the Q4_K benchmark): gemv
// and 4- and 16-token gemm, hot and cold.
#include <benchmark/benchmark.h>

#include <string>

#include "kernels/bench/kquant_bench_util.h"
#include "kernels/q5_k/q5_k.h"
#include "quant/q5_k.h"

namespace cpubrrr {
namespace {

// Keeps d and dmin finite: the random bits of each become a scale in 2^-14 .. 2^-4.
void FixScales(BlockQ5K& b) {
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

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) {
  using namespace cpubrrr;
  benchmark::Initialize(&argc, argv);
  const bench::Yardsticks ys = bench::MeasureYardsticks();
  for (const bench::Shape& shape : kShapes) {
    for (bool cold : {false, true}) {
      for (const Q5KKernels& k : AllQ5KVariants()) {
        // The scalar oracle only runs hot: cold, it would measure the ALU, not memory.
        if (cold && std::string(k.name) == "ref") continue;
        bench::RegisterShape<BlockQ5K>(k, shape, ys, cold, FixScales);
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
