// Streams a planned synthetic model to a GGUF file.
#ifndef CPUBRRR_RUNTIME_SYNTH_WRITE_MODEL_H_
#define CPUBRRR_RUNTIME_SYNTH_WRITE_MODEL_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "runtime/synth/model_plan.h"
#include "runtime/synth/trained_weights.h"

namespace cpubrrr::synth {

// Writes `plan` to `path`, producing each tensor when the writer reaches it so that
// multi-gigabyte models never sit in memory whole: from `trained` (already checked
// against the plan) when it is given, else random weights drawn from `seed`.
absl::Status WriteModel(const ModelPlan& plan, uint64_t seed, int threads,
                        const TrainedWeights* trained, const std::string& path);

}  // namespace cpubrrr::synth

#endif  // CPUBRRR_RUNTIME_SYNTH_WRITE_MODEL_H_
