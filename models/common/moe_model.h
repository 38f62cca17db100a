// The worker-driven forward pass shared by gpt-oss and qwen3moe, behind the Model interface.
#ifndef CPUBRRR_MODELS_COMMON_MOE_MODEL_H_
#define CPUBRRR_MODELS_COMMON_MOE_MODEL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/model/model.h"
#include "runtime/model/model_options.h"
#include "models/common/arch_spec.h"
#include "models/common/model_config.h"
#include "models/common/moe_weights.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/kv_cache/kv_cache.h"

namespace cpubrrr {

// Returns a Model that owns `file` and runs `weights` (views into it) with `config` and
// the architecture's `spec`. Fails when a weight type cannot serve its role (the router
// must be a float type; block-quantized rows must fit the activation formats).
absl::StatusOr<std::unique_ptr<Model>> NewMoeModel(GgufFile file, ModelConfig config, const ArchSpec& spec,
                                                   ModelWeights weights, const ModelOptions& options);

// Binds an architecture's tensors of `file` for `config` (models/*/..._weights.h).
using BindWeightsFn = absl::StatusOr<ModelWeights> (*)(const GgufFile& file, const ModelConfig& config);

// Reads `file`'s config, binds its tensors with `bind` and returns NewMoeModel's model.
absl::StatusOr<std::unique_ptr<Model>> OpenMoeModel(GgufFile file, const ArchSpec& spec, BindWeightsFn bind,
                                                    const ModelOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_MOE_MODEL_H_
