// qwen3moe = the shared MoE forward pass with q/k norms, full attention and SwiGLU.
#include "models/qwen3moe/qwen3moe_model.h"

#include "models/qwen3moe/qwen3moe_weights.h"

namespace cpubrrr {

absl::StatusOr<std::unique_ptr<Model>> NewQwen3MoeModel(GgufFile file, ModelConfig config,
                                                        const ModelOptions& options) {
  absl::StatusOr<ModelWeights> weights = BindQwen3MoeWeights(file, config);
  if (!weights.ok()) return weights.status();
  return NewMoeModel(std::move(file), std::move(config), *std::move(weights), options);
}

}  // namespace cpubrrr
