// The bound tensors of a gpt-oss or qwen3moe model, as views into the mapped file.
#ifndef CPUBRRR_MODELS_COMMON_MOE_WEIGHTS_H_
#define CPUBRRR_MODELS_COMMON_MOE_WEIGHTS_H_

#include <vector>

#include "models/common/weight_matrix.h"

namespace cpubrrr {

// One transformer block. Pointers an architecture lacks are null: biases and sinks
// exist in gpt-oss only, q/k norms in qwen3moe only. Bias layouts follow GGUF:
// gate/up biases [n_expert][n_ff], down bias [n_expert][n_embd].
struct LayerWeights {
  const float* attn_norm = nullptr;  // [n_embd]
  WeightMatrix wq, wk, wv, wo;       // [n_embd -> q_dim], [n_embd -> kv_dim] x2, [q_dim -> n_embd]
  const float* bq = nullptr;
  const float* bk = nullptr;
  const float* bv = nullptr;
  const float* bo = nullptr;
  const float* q_norm = nullptr;     // [head_dim], per-head RMSNorm of q
  const float* k_norm = nullptr;
  const float* sinks = nullptr;      // [n_head] attention sink logits
  const float* ffn_norm = nullptr;   // [n_embd]
  WeightMatrix router;               // [n_embd -> n_expert], a float type
  const float* router_bias = nullptr;
  WeightMatrix gate_exps, up_exps;   // n_expert x [n_embd -> n_ff]
  WeightMatrix down_exps;            // n_expert x [n_ff -> n_embd]
  const float* gate_bias = nullptr;
  const float* up_bias = nullptr;
  const float* down_bias = nullptr;
};

struct ModelWeights {
  WeightMatrix token_embd;  // n_vocab rows of n_embd
  const float* output_norm = nullptr;
  WeightMatrix output;      // n_vocab rows of n_embd (token_embd when tied)
  std::vector<LayerWeights> layers;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_MOE_WEIGHTS_H_
