// Streams a planned synthetic model to a GGUF file.
#ifndef CPUBRRR_TOOLS_SYNTH_WRITE_MODEL_H_
#define CPUBRRR_TOOLS_SYNTH_WRITE_MODEL_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "tools/synth/model_plan.h"

namespace cpubrrr::synth {

// Writes `plan` to `path` with weights drawn from `seed`, generating each tensor when
// the writer reaches it so that multi-gigabyte models never sit in memory whole.
absl::Status WriteModel(const ModelPlan& plan, uint64_t seed, int threads,
                        const std::string& path);

}  // namespace cpubrrr::synth

#endif  // CPUBRRR_TOOLS_SYNTH_WRITE_MODEL_H_
