// Opens a qwen3moe GGUF (Qwen3-30B-A3B and relatives) as a Model.
#ifndef CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_MODEL_H_
#define CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_MODEL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/model/model.h"
#include "models/common/model_config.h"
#include "models/common/moe_model.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {

// Binds `file`'s qwen3moe tensors and returns the model that owns the file.
// Precondition: config was read from `file` and config.arch is kQwen3Moe.
absl::StatusOr<std::unique_ptr<Model>> NewQwen3MoeModel(GgufFile file, ModelConfig config,
                                                        const ModelOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_MODEL_H_
