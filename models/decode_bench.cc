// Decode speed of a GGUF model: prefill a short prompt, then greedy decode at each
// thread count; prints tok/s, weight bytes per token and the fraction of read bandwidth.
//   bazel run -c opt //models:decode_bench -- MODEL.gguf [decode_tokens] [repeats]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "kernels/common/read_bandwidth.h"
#include "models/load_model.h"

namespace cpubrrr {
namespace {

constexpr int kPromptTokens = 16;

// Returns the median of `v` (which it sorts).
double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Returns decode tokens per second of one run: a fresh session, the prompt as one
// batch, then `n` greedy tokens one Forward each (timed).
double DecodeRate(Model& model, int n) {
  std::unique_ptr<Session> session = *model.NewSession(kPromptTokens + n + 1);
  std::vector<float> logits(model.info().n_vocab);
  std::vector<int32_t> prompt;
  for (int i = 0; i < kPromptTokens; ++i) prompt.push_back((i * 7919 + 13) % model.info().n_vocab);
  if (!model.Forward(*session, prompt, absl::MakeSpan(logits)).ok()) std::abort();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    const int32_t next = static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
    if (!model.Forward(*session, {&next, 1}, absl::MakeSpan(logits)).ok()) std::abort();
  }
  return n / std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Loads the model at each thread count and prints the median decode rate of `repeats`
// runs after one warm-up run (which pages the mapped weights in).
int Main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: decode_bench MODEL.gguf [decode_tokens=32] [repeats=3]\n");
    return 2;
  }
  const int n = argc > 2 ? std::atoi(argv[2]) : 32;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  const double bw = MeasureReadBandwidthGBs(size_t{1} << 30, 5);
  std::printf("read bandwidth (1 thread, best of 5 over 1 GiB): %.1f GB/s\n", bw);
  for (int threads : {1, 2}) {
    absl::StatusOr<std::unique_ptr<Model>> model = LoadModel(argv[1], {.n_threads = threads});
    if (!model.ok()) {
      std::fprintf(stderr, "%s\n", std::string(model.status().message()).c_str());
      return 1;
    }
    const ModelInfo& info = (*model)->info();
    DecodeRate(**model, n);
    std::vector<double> rates;
    for (int r = 0; r < repeats; ++r) rates.push_back(DecodeRate(**model, n));
    const double rate = Median(rates);
    const double gbs = rate * info.bytes_per_token / 1e9;
    std::printf("%s threads %d: %.2f tok/s median of %d x %d tokens (min %.2f, max %.2f); "
                "%.1f MB weights/token -> %.1f GB/s = %.0f%% of read bandwidth\n",
                info.architecture.c_str(), threads, rate, repeats, n,
                *std::min_element(rates.begin(), rates.end()),
                *std::max_element(rates.begin(), rates.end()), info.bytes_per_token / 1e6, gbs,
                100 * gbs / bw);
  }
  return 0;
}

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) { return cpubrrr::Main(argc, argv); }
