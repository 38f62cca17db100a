// The bench loop: bandwidth, then per thread count load, test, unload and bandwidth again.
#include "tools/cpubrrr/bench_command.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernels/common/parallel_read_bandwidth.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/model/architecture.h"
#include "runtime/model/model_options.h"
#include "tools/cpubrrr/bench_report.h"
#include "tools/cpubrrr/bench_runs.h"
#include "tools/cpubrrr/cli_engine.h"
#include "tools/cpubrrr/load_progress.h"
#include "runtime/threading/physical_cores.h"
#include "tools/cpubrrr/machine_info.h"
#include "tools/cpubrrr/run_in_child.h"

namespace cpubrrr {
namespace {

// The read-bandwidth buffer: far larger than any last-level cache; best of 3 passes.
constexpr size_t kBandwidthBytes = size_t{1} << 30;
constexpr int kBandwidthPasses = 3;

// Returns the tests -p and -n ask for, pp first, in the order given, each at every -np
// and every -d.
std::vector<BenchTest> Tests(const CliOptions& options) {
  std::vector<BenchTest> tests;
  auto add = [&](int n_prompt, int n_gen) {
    for (int n_seq : options.n_seq) {
      for (int depth : options.depths) {
        tests.push_back({.n_prompt = n_prompt, .n_gen = n_gen, .n_seq = n_seq, .depth = depth});
      }
    }
  };
  for (int n : options.n_prompt) {
    if (n > 0) add(n, 0);
  }
  for (int n : options.n_gen) {
    if (n > 0) add(0, n);
  }
  return tests;
}

uint64_t PeakRssBytes() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

absl::Status BenchCommand(const CliOptions& options, absl::Span<const Architecture> architectures) {
  const std::vector<BenchTest> tests = Tests(options);
  if (tests.empty()) return absl::InvalidArgumentError("nothing to run: every -p and -n is 0");
  const int cores = PhysicalCoreCount();
  const std::vector<int> thread_counts =
      options.thread_counts.empty() ? std::vector<int>{cores} : options.thread_counts;
  absl::StatusOr<ModelSource> source = ResolveCliModel(options);
  if (!source.ok()) return source.status();
  // A file this binary cannot run fails before the bandwidth is measured.
  if (absl::StatusOr<ModelFile> file = OpenModelFile(source->path, architectures); !file.ok()) return file.status();

  std::fprintf(stderr, "bench: measuring the read bandwidth\n");
  absl::StatusOr<std::vector<double>> bandwidths = RunInChild([&thread_counts] {
    return MeasureParallelReadBandwidthGBs(kBandwidthBytes, thread_counts, kBandwidthPasses);
  });
  if (!bandwidths.ok()) return bandwidths.status();
  if (bandwidths->size() != thread_counts.size()) {
    return absl::InternalError("the read bandwidth measurement returned the wrong count");
  }

  BenchReport report{.cpu = CpuModelName(), .cores = cores, .loads = {}, .rows = {}};
  for (size_t i = 0; i < thread_counts.size(); ++i) {
    const int threads = thread_counts[i];
    LoadProgress progress(source->path);
    const auto start = std::chrono::steady_clock::now();
    ModelOptions model_options = CliModelOptions(options);
    model_options.n_threads = threads;
    model_options.progress = [&progress](double f) { progress.Update(f); };
    absl::StatusOr<std::unique_ptr<Model>> model = OpenModel(source->path, architectures, model_options);
    if (!model.ok()) return model.status();
    progress.Done();
    ReportRepack((*model)->info());
    report.loads.push_back(
        {.threads = threads,
         .read_gbs = (*bandwidths)[i],
         .load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
         .peak_rss_bytes = PeakRssBytes()});
    const ModelInfo& info = (*model)->info();
    for (const BenchTest& test : tests) {
      BenchRow row{.model = info.name.empty() ? BaseName(source->path) : info.name,
                   .path = source->path,
                   .file_bytes = info.file_bytes,
                   .n_params = info.n_params,
                   .bytes_per_token = info.bytes_per_token,
                   .threads = threads,
                   .n_prompt = test.n_prompt,
                   .n_gen = test.n_gen,
                   .n_seq = test.n_seq,
                   .depth = test.depth,
                   .samples_ts = {}};
      std::fprintf(stderr, "bench: %s with %d thread%s: a warm-up and %d timed run%s\n",
                   TestName(row).c_str(), threads, threads == 1 ? "" : "s", options.repetitions,
                   options.repetitions == 1 ? "" : "s");
      absl::StatusOr<BenchSamples> samples = RunBenchTest(**model, test, options.repetitions);
      if (!samples.ok()) return samples.status();
      row.samples_ts = samples->tokens_per_second;
      row.storage_bytes_per_token = samples->storage_bytes_per_token;
      // What a token of a shared step really read, where the model counts it.
      if (test.n_gen > 0 && samples->bytes_per_step > 0) {
        row.bytes_per_token = static_cast<uint64_t>(samples->bytes_per_step / test.n_seq);
      }
      report.rows.push_back(std::move(row));
    }
    report.loads.back().peak_rss_after_tests_bytes = PeakRssBytes();
    // This machine's bandwidth moves between minutes; the ceiling takes the better of the
    // yardsticks before and after this thread count's tests, so the percentage errs low.
    absl::StatusOr<std::vector<double>> after = RunInChild([threads] {
      return MeasureParallelReadBandwidthGBs(kBandwidthBytes, {threads}, kBandwidthPasses);
    });
    if (!after.ok()) return after.status();
    if (after->size() != 1) return absl::InternalError("the read bandwidth measurement returned the wrong count");
    report.loads.back().read_gbs = std::max(report.loads.back().read_gbs, (*after)[0]);
  }
  const std::string out = options.json ? JsonReport(report) : MarkdownReport(report);
  std::fputs(out.c_str(), stdout);
  return absl::OkStatus();
}

}  // namespace cpubrrr
