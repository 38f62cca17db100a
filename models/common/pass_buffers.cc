// Sizes a pass's buffers, with quantized copies only in the formats some weight needs.
#include "models/common/pass_buffers.h"

#include <numeric>

namespace cpubrrr {
namespace {

// Which matrices read an activation batch.
enum class Consumer { kNormed, kAttnOut, kHidden };

// Returns whether any layer's consumers of `batch` read activations in format `f`.
bool LayersNeed(const ModelWeights& w, ActFormat f, Consumer batch) {
  for (const LayerWeights& l : w.layers) {
    if (batch == Consumer::kNormed && AnyNeeds(f, l.wq, l.wk, l.wv, l.gate_exps, l.up_exps)) return true;
    if (batch == Consumer::kAttnOut && AnyNeeds(f, l.wo)) return true;
    if (batch == Consumer::kHidden && AnyNeeds(f, l.down_exps)) return true;
  }
  return false;
}

ActivationBatch BatchFor(const ModelWeights& w, Consumer batch, int rows, int64_t cols) {
  return ActivationBatch(rows, cols, LayersNeed(w, ActFormat::kQ8_0, batch), LayersNeed(w, ActFormat::kQ8K, batch));
}

}  // namespace

PassBuffers::PassBuffers(const ModelConfig& c, const ModelWeights& w, int max_rows, int n_workers)
    : normed(BatchFor(w, Consumer::kNormed, max_rows, c.n_embd)),
      attn_out(BatchFor(w, Consumer::kAttnOut, max_rows, c.q_dim())),
      hidden(BatchFor(w, Consumer::kHidden, max_rows * c.n_expert_used, c.n_ff_exp)),
      head_in(max_rows, c.n_embd, AnyNeeds(ActFormat::kQ8_0, w.output), AnyNeeds(ActFormat::kQ8K, w.output)),
      mm(n_workers) {
  const size_t U = max_rows, d = c.n_embd, slots = c.n_expert_used;
  rows.reserve(U);
  x.resize(U * d);
  rope_cos.resize(U * c.head_dim / 2);
  rope_sin.resize(U * c.head_dim / 2);
  q.resize(U * c.q_dim());
  k.resize(U * c.kv_dim());
  v.resize(U * c.kv_dim());
  proj.resize(U * d);
  router.resize(U * c.n_expert);
  sel_ids.resize(U * slots);
  sel_w.resize(U * slots);
  eo.resize(U * slots * d);
  iota.resize(U * slots);
  std::iota(iota.begin(), iota.end(), 0);
}

}  // namespace cpubrrr
