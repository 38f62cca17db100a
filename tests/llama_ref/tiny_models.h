// Writes the tiny synthetic presets to the test's temporary folder, for cross-checks.
#ifndef CPUBRRR_TESTS_LLAMA_REF_TINY_MODELS_H_
#define CPUBRRR_TESTS_LLAMA_REF_TINY_MODELS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/synth/model_plan.h"

namespace cpubrrr {

// Where llama.cpp's CPU backends are, relative to a test's runfiles folder.
inline constexpr char kLlamaBackends[] = "external/llama_ref/bins";

struct TinyModel {
  std::string path;
  synth::ModelPlan plan;
};

// Writes preset `preset` (Ollama naming when `ollama`; dense tensors bf16 then, Q8_0
// otherwise) with weights from `seed` to TempDir()/<preset><tag>.gguf, with the real
// tokenizer from the reference tokenizers (data dependency @llama_ref//:reference_tokenizers).
absl::StatusOr<TinyModel> WriteTinyModel(const std::string& preset, bool ollama, uint64_t seed,
                                         const std::string& tag);

}  // namespace cpubrrr

#endif  // CPUBRRR_TESTS_LLAMA_REF_TINY_MODELS_H_
