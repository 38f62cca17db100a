// The rows of one pass of the shared MoE model and the activations its stages hand on.
#ifndef CPUBRRR_MODELS_COMMON_PASS_BUFFERS_H_
#define CPUBRRR_MODELS_COMMON_PASS_BUFFERS_H_

#include <cstdint>
#include <vector>

#include "models/common/activation_batch.h"
#include "models/common/linear.h"
#include "models/common/model_config.h"
#include "models/common/moe_session.h"
#include "models/common/moe_weights.h"

namespace cpubrrr {

// A row of a pass: a token of a session at its position.
struct PassRow {
  MoeSession* session;
  int32_t token;
  uint32_t pos;
};

// Sized once for the most rows a pass takes; a pass uses the first rows.size() of each.
struct PassBuffers {
  PassBuffers(const ModelConfig& c, const ModelWeights& w, int max_rows, int n_workers);

  std::vector<PassRow> rows;
  std::vector<float> x;                   // the residual stream, n_embd per row
  std::vector<float> rope_cos, rope_sin;  // each row's RoPE table, head_dim / 2 each
  std::vector<float> q, k, v;             // projections, q_dim / kv_dim per row
  std::vector<float> proj;                // attention output projection, n_embd per row
  std::vector<float> router;              // router logits, n_expert per row
  std::vector<int32_t> sel_ids;           // per row, its n_expert_used experts
  std::vector<float> sel_w;               // and their weights
  std::vector<float> eo;                  // experts' down outputs, n_embd per (row, slot)
  std::vector<int32_t> iota;              // 0, 1, 2, ...: row lists in order
  ActivationBatch normed;    // an attention or FFN norm, quantized for its consumers
  ActivationBatch attn_out;  // attention's output, for wo
  ActivationBatch hidden;    // experts' SwiGLU output per (row, slot), for down
  ActivationBatch head_in;   // the output norm of the rows whose logits are wanted
  std::vector<MatMulScratch> mm;  // per worker
};

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_PASS_BUFFERS_H_
