// Google Benchmark of every bf16-weight variant (bfloat16): gemv hot and cold, gemm, row fetch.
#include "benchmark/benchmark.h"
#include "kernels/bf16/bf16.h"
#include "kernels/bench/half_bench-inl.h"
#include "quant/bf16.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  cpubrrr::RegisterHalfBenchmarks("bf16", cpubrrr::AllBf16Variants(), cpubrrr::Fp32ToBf16);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
