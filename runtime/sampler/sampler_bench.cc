// Measures one full default-chain sample (penalties over 64 tokens, top-k 40, top-p 0.95,
// min-p 0.05, temperature 0.8, draw) at the gpt-oss and Qwen3 vocabulary sizes.
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/sampler/rng.h"
#include "runtime/sampler/sampler.h"

namespace cpubrrr {
namespace {

std::vector<float> Logits(size_t vocab) {
  Xoshiro256 r(1);
  std::vector<float> v(vocab);
  // Roughly normal logits (sum of four uniforms) with a few strong candidates.
  for (float& x : v) x = static_cast<float>(2.0 * (r.Uniform() + r.Uniform() + r.Uniform() + r.Uniform() - 2.0));
  for (int i = 0; i < 20; ++i) v[r.Next() % vocab] += 12.0f;
  return v;
}

void Run(benchmark::State& state, SamplerParams params) {
  const std::vector<float> logits = Logits(static_cast<size_t>(state.range(0)));
  params.repeat_penalty = 1.1f;  // exercise the penalty path
  Sampler s(params);
  Xoshiro256 r(2);
  for (int i = 0; i < 64; ++i) s.Accept(static_cast<int32_t>(r.Next() % logits.size()));
  for (auto _ : state) benchmark::DoNotOptimize(s.Sample(logits).token);
}

void BM_DefaultChain(benchmark::State& state) { Run(state, SamplerParams{}); }
void BM_Greedy(benchmark::State& state) {
  SamplerParams p;
  p.temperature = 0.0f;
  Run(state, p);
}
void BM_DefaultChainWithLogprobs5(benchmark::State& state) {
  SamplerParams p;
  p.logprobs = 5;
  Run(state, p);
}

BENCHMARK(BM_DefaultChain)->Arg(201088)->Arg(151936)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Greedy)->Arg(201088)->Arg(151936)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DefaultChainWithLogprobs5)->Arg(201088)->Arg(151936)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cpubrrr
