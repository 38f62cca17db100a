// What the shared MoE pass does differently per architecture, fixed when a model binds.
#ifndef CPUBRRR_MODELS_COMMON_ARCH_SPEC_H_
#define CPUBRRR_MODELS_COMMON_ARCH_SPEC_H_

namespace cpubrrr {

// How a token's router logits become its k experts and their weights.
enum class RouterPolicy {
  kSoftmaxOfTopK,  // the k largest logits, then a softmax over those k (gpt-oss)
  kTopKOfSoftmax,  // a softmax over all experts, the k largest, renormalized to sum 1 (qwen3moe)
};

// The gated activation between an expert's gate/up and its down.
enum class ExpertActivation {
  kSwiglu,         // silu(gate) * up (qwen3moe)
  kClampedSwiglu,  // ggml's swiglu_oai with `swiglu_alpha` and `swiglu_limit` (gpt-oss)
};

// Everything else differs by which tensors a file has (biases, sinks, q/k norms) or by
// the config (sliding window, RoPE), not by architecture.
struct ArchSpec {
  RouterPolicy router = RouterPolicy::kTopKOfSoftmax;
  ExpertActivation activation = ExpertActivation::kSwiglu;
  float swiglu_alpha = 0.0f;  // kClampedSwiglu only
  float swiglu_limit = 0.0f;  // kClampedSwiglu only
};

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_ARCH_SPEC_H_
