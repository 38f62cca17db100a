// gpt-oss = the shared MoE forward pass with biases, sinks, sliding windows and OAI SwiGLU.
#include "models/gpt_oss/gpt_oss_model.h"

#include "models/gpt_oss/gpt_oss_weights.h"

namespace cpubrrr {

absl::StatusOr<std::unique_ptr<Model>> NewGptOssModel(GgufFile file, ModelConfig config,
                                                      const ModelOptions& options) {
  absl::StatusOr<ModelWeights> weights = BindGptOssWeights(file, config);
  if (!weights.ok()) return weights.status();
  return NewMoeModel(std::move(file), std::move(config), *std::move(weights), options);
}

}  // namespace cpubrrr
