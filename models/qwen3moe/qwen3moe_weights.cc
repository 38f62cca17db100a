// qwen3moe tensor names and shapes (MODEL_SPEC.md section 3).
#include "models/qwen3moe/qwen3moe_weights.h"

#include "runtime/status_macros.h"
#include "models/common/tensor_binding.h"

namespace cpubrrr {

absl::StatusOr<ModelWeights> BindQwen3MoeWeights(const GgufFile& file, const ModelConfig& c) {
  const TensorBinder bind(file);
  const int64_t d = c.n_embd, q = c.q_dim(), kv = c.kv_dim(), ff = c.n_ff_exp, ne = c.n_expert;
  ModelWeights w;
  CPUBRRR_ASSIGN_OR_RETURN(w.token_embd, bind.Matrix({"token_embd.weight"}, d, c.n_vocab));
  CPUBRRR_ASSIGN_OR_RETURN(w.output_norm, bind.F32({"output_norm.weight"}, d));
  if (file.FindTensor("output.weight") != nullptr) {
    CPUBRRR_ASSIGN_OR_RETURN(w.output, bind.Matrix({"output.weight"}, d, c.n_vocab));
  } else {
    w.output = w.token_embd;
  }
  w.layers.resize(c.n_layer);
  for (uint32_t i = 0; i < c.n_layer; ++i) {
    LayerWeights& l = w.layers[i];
    auto n = [i](const char* suffix) { return LayerTensorName(i, suffix); };
    CPUBRRR_ASSIGN_OR_RETURN(l.attn_norm, bind.F32({n("attn_norm.weight")}, d));
    CPUBRRR_ASSIGN_OR_RETURN(l.wq, bind.Matrix({n("attn_q.weight")}, d, q));
    CPUBRRR_ASSIGN_OR_RETURN(l.wk, bind.Matrix({n("attn_k.weight")}, d, kv));
    CPUBRRR_ASSIGN_OR_RETURN(l.wv, bind.Matrix({n("attn_v.weight")}, d, kv));
    CPUBRRR_ASSIGN_OR_RETURN(l.wo, bind.Matrix({n("attn_output.weight")}, q, d));
    CPUBRRR_ASSIGN_OR_RETURN(l.q_norm, bind.F32({n("attn_q_norm.weight")}, c.head_dim));
    CPUBRRR_ASSIGN_OR_RETURN(l.k_norm, bind.F32({n("attn_k_norm.weight")}, c.head_dim));
    CPUBRRR_ASSIGN_OR_RETURN(l.ffn_norm, bind.F32({n("ffn_norm.weight")}, d));
    CPUBRRR_ASSIGN_OR_RETURN(l.router, bind.Matrix({n("ffn_gate_inp.weight")}, d, ne));
    CPUBRRR_ASSIGN_OR_RETURN(l.gate_exps, bind.Matrix({n("ffn_gate_exps.weight")}, d, ff, ne));
    CPUBRRR_ASSIGN_OR_RETURN(l.up_exps, bind.Matrix({n("ffn_up_exps.weight")}, d, ff, ne));
    CPUBRRR_ASSIGN_OR_RETURN(l.down_exps, bind.Matrix({n("ffn_down_exps.weight")}, ff, d, ne));
  }
  return w;
}

}  // namespace cpubrrr
