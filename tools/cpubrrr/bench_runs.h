// The timed runs of `cpubrrr bench`, as llama-bench defines them: ppN is a prefill of N
// tokens in one Forward call, tgN is N single-token Forward calls; each starts from a
// fresh session and feeds random token ids drawn from a fixed seed.
#ifndef CPUBRRR_TOOLS_CPUBRRR_BENCH_RUNS_H_
#define CPUBRRR_TOOLS_CPUBRRR_BENCH_RUNS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "runtime/model/model.h"

namespace cpubrrr {

// One test: exactly one of n_prompt and n_gen is above 0.
struct BenchTest {
  int n_prompt = 0;
  int n_gen = 0;
};

// Returns the seconds of one run of `test` on a new session; only the Forward calls are
// timed.
absl::StatusOr<double> TimeBenchRun(Model& model, const BenchTest& test);

// Runs `test` once untimed (warming caches and paging the weights in), then `repetitions`
// times, and returns tokens per second of each timed run.
absl::StatusOr<std::vector<double>> RunBenchTest(Model& model, const BenchTest& test, int repetitions);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_BENCH_RUNS_H_
