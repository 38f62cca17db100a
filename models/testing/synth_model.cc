// Made-up vocabularies and plan edits around runtime/synth's writer.
#include "models/testing/synth_model.h"

#include "gtest/gtest.h"
#include "runtime/gguf/str_cat.h"
#include "runtime/tokenizer/tokenizer_json.h"
#include "runtime/synth/write_model.h"

namespace cpubrrr {
namespace {

// Returns `rows` placeholder tokens with the special tokens of both architectures first.
BpeVocab FakeVocab(uint32_t rows) {
  BpeVocab v;
  for (const char* special : {"<|startoftext|>", "<|return|>", "<|endoftext|>", "<|im_end|>"}) {
    v.tokens.push_back(special);
    v.token_types.push_back(3);  // control
  }
  while (v.tokens.size() < rows) {
    v.tokens.push_back(Cat("[PAD", v.tokens.size(), "]"));
    v.token_types.push_back(1);
  }
  return v;
}

}  // namespace

absl::StatusOr<std::string> WriteSynthModel(
    const std::string& preset, bool ollama, uint64_t seed, const std::string& tag,
    const std::function<void(synth::ModelPlan&)>& edit) {
  absl::StatusOr<synth::ModelShape> shape = synth::ShapePreset(preset);
  if (!shape.ok()) return shape.status();
  synth::PlanOptions options{.ollama_naming = ollama,
                             .dense_type = ollama ? GgmlType::kBF16 : GgmlType::kQ8_0,
                             .name = preset};
  absl::StatusOr<synth::ModelPlan> plan = synth::PlanModel(*shape, options, FakeVocab(shape->n_vocab));
  if (!plan.ok()) return plan.status();
  if (edit) edit(*plan);
  const std::string path = Cat(testing::TempDir(), "/", preset, tag, ".gguf");
  absl::Status status = synth::WriteModel(*plan, seed, /*threads=*/2, /*trained=*/nullptr, path);
  if (!status.ok()) return status;
  return path;
}

}  // namespace cpubrrr
