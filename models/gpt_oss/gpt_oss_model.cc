// gpt-oss = the shared MoE forward pass with biases, sinks, sliding windows and OAI SwiGLU.
#include "models/gpt_oss/gpt_oss_model.h"

#include "models/common/arch_spec.h"
#include "models/common/moe_model.h"
#include "models/gpt_oss/gpt_oss_weights.h"
#include "runtime/model/model_arch.h"

namespace cpubrrr {
namespace {

// gpt-oss routes by a softmax over its top k logits and gates experts with ggml's clamped
// SwiGLU (swiglu_oai).
constexpr ArchSpec kGptOssSpec{RouterPolicy::kSoftmaxOfTopK, ExpertActivation::kClampedSwiglu,
                               /*swiglu_alpha=*/1.702f, /*swiglu_limit=*/7.0f};

}  // namespace

Architecture GptOssArchitecture() {
  return {std::string(ModelArchName(ModelArch::kGptOss)), ChatFormat::kHarmony,
          [](GgufFile file, const ModelOptions& options) {
            return OpenMoeModel(std::move(file), kGptOssSpec, BindGptOssWeights, options);
          }};
}

}  // namespace cpubrrr
