// Writes tiny synthetic models for tests that need no llama.cpp: a made-up vocabulary
// holding the special tokens the planner looks for, and an optional edit of the plan.
#ifndef CPUBRRR_MODELS_TESTING_SYNTH_MODEL_H_
#define CPUBRRR_MODELS_TESTING_SYNTH_MODEL_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/synth/model_plan.h"

namespace cpubrrr {

// Writes preset `preset` (Ollama naming when `ollama`) with weights from `seed` to
// TempDir()/<preset><tag>.gguf after applying `edit` to the plan; returns the path.
absl::StatusOr<std::string> WriteSynthModel(
    const std::string& preset, bool ollama, uint64_t seed, const std::string& tag,
    const std::function<void(synth::ModelPlan&)>& edit = nullptr);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_TESTING_SYNTH_MODEL_H_
