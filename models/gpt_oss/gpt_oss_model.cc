// gpt-oss = the shared MoE forward pass with biases, sinks, sliding windows and OAI SwiGLU.
#include "models/gpt_oss/gpt_oss_model.h"

#include "models/common/arch_spec.h"
#include "models/gpt_oss/gpt_oss_weights.h"

namespace cpubrrr {
namespace {

// gpt-oss routes by a softmax over its top k logits and gates experts with ggml's clamped
// SwiGLU (swiglu_oai).
constexpr ArchSpec kGptOssSpec{RouterPolicy::kSoftmaxOfTopK, ExpertActivation::kClampedSwiglu,
                               /*swiglu_alpha=*/1.702f, /*swiglu_limit=*/7.0f};

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> NewGptOssModel(GgufFile file, ModelConfig config,
                                                      const ModelOptions& options) {
  absl::StatusOr<ModelWeights> weights = BindGptOssWeights(file, config);
  if (!weights.ok()) return weights.status();
  return NewMoeModel(std::move(file), std::move(config), kGptOssSpec, *std::move(weights), options);
}

}  // namespace cpubrrr
