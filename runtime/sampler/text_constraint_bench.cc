// Measures TextConstraint::Mask over a gpt-oss-sized vocabulary (201,088 tokens of 1-8
// random printable bytes) in each kind of phase: the cost a required tool call adds to
// every sampled token.
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/sampler/rng.h"
#include "runtime/sampler/text_constraint.h"

namespace cpubrrr {
namespace {

constexpr size_t kVocab = 201088;

const std::vector<std::string>& Texts() {
  static const std::vector<std::string> texts = [] {
    Xoshiro256 r(3);
    std::vector<std::string> t(kVocab);
    for (std::string& s : t) {
      s.resize(1 + r.Next() % 8);
      for (char& c : s) c = static_cast<char>(' ' + r.Next() % 95);
    }
    return t;
  }();
  return texts;
}

// Masks after `prefix` was taken by the program `phases`.
void Run(benchmark::State& state, std::vector<ConstraintPhase> phases, const std::string& prefix) {
  const std::vector<std::string>& texts = Texts();
  std::vector<std::string_view> views(texts.begin(), texts.end());
  std::vector<std::string> bytes(256);
  for (int b = 0; b < 256; ++b) bytes[b] = std::string(1, static_cast<char>(b)), views[b] = bytes[b];
  const TokenTexts token_texts(views, std::vector<bool>(kVocab, false));
  TextConstraint c(std::move(phases), token_texts);
  for (char ch : prefix) c.Accept(static_cast<unsigned char>(ch));
  std::vector<float> logits(kVocab, 0.0f);
  size_t allowed = 0;
  for (auto _ : state) {
    std::fill(logits.begin(), logits.end(), 0.0f);
    allowed = c.Mask(logits);
    benchmark::DoNotOptimize(logits.data());
  }
  state.counters["allowed"] = static_cast<double>(allowed);
}

void BM_MaskInJsonString(benchmark::State& state) {
  Run(state, {ConstraintPhase::Json(ConstraintPhase::kObject, -1)}, "{\"city\": \"Pa");
}
// As a harmony call's arguments are: the format's markers forbidden.
void BM_MaskInJsonStringWithMarkers(benchmark::State& state) {
  ConstraintPhase json = ConstraintPhase::Json(ConstraintPhase::kObject, -1);
  json.forbidden = {"<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|constrain|>", "<|return|>", "<|call|>"};
  Run(state, {json}, "{\"city\": \"Pa");
}
void BM_MaskAtJsonKey(benchmark::State& state) {
  Run(state, {ConstraintPhase::Json(ConstraintPhase::kObject, -1)}, "{");
}
void BM_MaskInFreeText(benchmark::State& state) {
  Run(state, {ConstraintPhase::FreeText("</think>", -1)}, "Let me think");
}
void BM_MaskAtLiterals(benchmark::State& state) {
  std::vector<std::pair<std::string, int>> names;
  for (int i = 0; i < 32; ++i) names.emplace_back("<tool_call>\n{\"name\": \"function_" + std::to_string(i) + "\"", -1);
  Run(state, {ConstraintPhase::Literals(std::move(names))}, "");
}
BENCHMARK(BM_MaskInJsonString)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MaskInJsonStringWithMarkers)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MaskAtJsonKey)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MaskInFreeText)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MaskAtLiterals)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cpubrrr
