// Fresh sessions per run, token ids drawn before the clock starts.
#include "tools/cpubrrr/bench_runs.h"

#include <chrono>
#include <memory>
#include <random>

#include "tools/cpubrrr/machine_info.h"

namespace cpubrrr {

absl::StatusOr<BenchRun> TimeBenchRun(Model& model, const BenchTest& test) {
  const int n = test.depth + test.n_prompt + test.n_gen;
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int32_t> id(0, model.info().n_vocab - 1);
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<std::vector<int32_t>> tokens(test.n_seq, std::vector<int32_t>(n));
  std::vector<std::vector<float>> logits(test.n_seq, std::vector<float>(model.info().n_vocab));
  for (int s = 0; s < test.n_seq; ++s) {
    absl::StatusOr<std::unique_ptr<Session>> session = model.NewSession(n);
    if (!session.ok()) return session.status();
    sessions.push_back(*std::move(session));
    for (int32_t& token : tokens[s]) token = id(rng);
  }
  // Runs tokens [begin, begin + count) of every sequence in one call.
  auto run = [&](int begin, int count) {
    std::vector<ForwardEntry> entries;
    for (int s = 0; s < test.n_seq; ++s) {
      entries.push_back({sessions[s].get(), absl::MakeConstSpan(tokens[s]).subspan(begin, count),
                         absl::MakeSpan(logits[s])});
    }
    return model.ForwardBatch(entries);
  };
  if (test.depth > 0) {
    if (absl::Status s = run(0, test.depth); !s.ok()) return s;
  }
  const uint64_t bytes_before = model.weight_bytes_read();
  const uint64_t storage_before = StorageReadBytes();
  const auto start = std::chrono::steady_clock::now();
  int steps = 0;
  if (test.n_prompt > 0) {
    if (absl::Status s = run(test.depth, test.n_prompt); !s.ok()) return s;
    steps = 1;
  } else {
    for (; steps < test.n_gen; ++steps) {
      if (absl::Status s = run(test.depth + steps, 1); !s.ok()) return s;
    }
  }
  BenchRun result;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.bytes_per_step = static_cast<double>(model.weight_bytes_read() - bytes_before) / steps;
  result.storage_bytes_per_token =
      static_cast<double>(StorageReadBytes() - storage_before) / (test.n_seq * (test.n_prompt + test.n_gen));
  return result;
}

absl::StatusOr<BenchSamples> RunBenchTest(Model& model, const BenchTest& test, int repetitions) {
  // Each timed run fills its own depth before its clock starts, paging in the weights and
  // touching its cache, so a warm-up at depth would only repeat the longest untimed part.
  BenchTest warm_up = test;
  warm_up.depth = 0;
  if (absl::StatusOr<BenchRun> run = TimeBenchRun(model, warm_up); !run.ok()) return run.status();
  BenchSamples samples;
  for (int r = 0; r < repetitions; ++r) {
    absl::StatusOr<BenchRun> run = TimeBenchRun(model, test);
    if (!run.ok()) return run.status();
    samples.tokens_per_second.push_back(static_cast<double>(test.n_seq) * (test.n_prompt + test.n_gen) / run->seconds);
    samples.bytes_per_step += run->bytes_per_step / repetitions;
    samples.storage_bytes_per_token += run->storage_bytes_per_token / repetitions;
  }
  return samples;
}

}  // namespace cpubrrr
