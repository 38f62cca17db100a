// qwen3moe = the shared MoE forward pass with q/k norms, full attention and SwiGLU.
#include "models/qwen3moe/qwen3moe_model.h"

#include "models/common/arch_spec.h"
#include "models/common/moe_model.h"
#include "models/qwen3moe/qwen3moe_weights.h"
#include "runtime/model/model_arch.h"

namespace cpubrrr {
namespace {

// qwen3moe routes by its top k of a softmax over all experts, renormalized, and gates
// experts with SwiGLU.
constexpr ArchSpec kQwen3MoeSpec{RouterPolicy::kTopKOfSoftmax, ExpertActivation::kSwiglu};

}  // namespace

Architecture Qwen3MoeArchitecture() {
  return {std::string(ModelArchName(ModelArch::kQwen3Moe)), ChatFormat::kChatMl,
          [](GgufFile file, const ModelOptions& options) {
            return OpenMoeModel(std::move(file), kQwen3MoeSpec, BindQwen3MoeWeights, options);
          }};
}

}  // namespace cpubrrr
