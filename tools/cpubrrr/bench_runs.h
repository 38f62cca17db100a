// The timed runs of `cpubrrr bench`, as llama-bench and llama-batched-bench define them:
// ppN is a prefill of N tokens in one forward call, tgN is N single-token steps; with
// n_seq sequences each step carries one row of each (one ForwardBatch), and with a depth
// every sequence first holds that many tokens (untimed). Each run starts from fresh
// sessions and feeds random token ids drawn from a fixed seed.
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
  int n_seq = 1;  // sequences run together (llama-batched-bench's parallel sequences)
  int depth = 0;  // tokens already in each sequence's cache (llama-bench's -d)
};

struct BenchRun {
  double seconds = 0;         // the timed forward calls
  double bytes_per_step = 0;  // weight bytes a forward call read (0: the model does not count)
  double storage_bytes_per_token = 0;  // bytes fetched from storage per token (StorageReadBytes)
};

// Times one run of `test` on new sessions; only the forward calls after the depth fill
// are timed.
absl::StatusOr<BenchRun> TimeBenchRun(Model& model, const BenchTest& test);

struct BenchSamples {
  std::vector<double> tokens_per_second;  // all sequences' tokens, per timed run
  double bytes_per_step = 0;              // of the timed runs, averaged
  double storage_bytes_per_token = 0;     // of the timed runs, averaged
};

// Runs `test` once untimed without its depth (warming caches and paging the weights in),
// then `repetitions` times.
absl::StatusOr<BenchSamples> RunBenchTest(Model& model, const BenchTest& test, int repetitions);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_BENCH_RUNS_H_
