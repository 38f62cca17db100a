// qwen3moe = the shared MoE forward pass with q/k norms, full attention and SwiGLU.
#include "models/qwen3moe/qwen3moe_model.h"

#include "models/common/arch_spec.h"
#include "models/qwen3moe/qwen3moe_weights.h"

namespace cpubrrr {
namespace {

// qwen3moe routes by its top k of a softmax over all experts, renormalized, and gates
// experts with SwiGLU.
constexpr ArchSpec kQwen3MoeSpec{RouterPolicy::kTopKOfSoftmax, ExpertActivation::kSwiglu};

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> NewQwen3MoeModel(GgufFile file, ModelConfig config,
                                                        const ModelOptions& options) {
  absl::StatusOr<ModelWeights> weights = BindQwen3MoeWeights(file, config);
  if (!weights.ok()) return weights.status();
  return NewMoeModel(std::move(file), std::move(config), kQwen3MoeSpec, *std::move(weights), options);
}

}  // namespace cpubrrr
