// A fresh session per run, token ids drawn before the clock starts.
#include "tools/cpubrrr/bench_runs.h"

#include <chrono>
#include <memory>
#include <random>

namespace cpubrrr {

absl::StatusOr<double> TimeBenchRun(Model& model, const BenchTest& test) {
  const int n = test.n_prompt + test.n_gen;
  absl::StatusOr<std::unique_ptr<Session>> session = model.NewSession(n);
  if (!session.ok()) return session.status();
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int32_t> id(0, model.info().n_vocab - 1);
  std::vector<int32_t> tokens(n);
  for (int32_t& token : tokens) token = id(rng);
  std::vector<float> logits(model.info().n_vocab);
  const auto start = std::chrono::steady_clock::now();
  if (test.n_prompt > 0) {
    if (absl::Status s = model.Forward(**session, tokens, absl::MakeSpan(logits)); !s.ok()) return s;
  } else {
    for (int i = 0; i < n; ++i) {
      if (absl::Status s = model.Forward(**session, {&tokens[i], 1}, absl::MakeSpan(logits)); !s.ok()) return s;
    }
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

absl::StatusOr<std::vector<double>> RunBenchTest(Model& model, const BenchTest& test, int repetitions) {
  if (absl::StatusOr<double> warm_up = TimeBenchRun(model, test); !warm_up.ok()) return warm_up.status();
  std::vector<double> tokens_per_second;
  for (int r = 0; r < repetitions; ++r) {
    absl::StatusOr<double> seconds = TimeBenchRun(model, test);
    if (!seconds.ok()) return seconds.status();
    tokens_per_second.push_back((test.n_prompt + test.n_gen) / *seconds);
  }
  return tokens_per_second;
}

}  // namespace cpubrrr
