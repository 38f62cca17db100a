// Google Benchmark of every f16-weight variant (IEEE fp16): gemv hot and cold, gemm, row fetch.
#include "benchmark/benchmark.h"
#include "kernels/f16/f16.h"
#include "kernels/bench/half_bench-inl.h"
#include "quant/fp16.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  cpubrrr::RegisterHalfBenchmarks("f16", cpubrrr::AllF16Variants(), cpubrrr::Fp32ToFp16);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
