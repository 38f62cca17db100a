// A layer's attention block over a pass: norm, q/k/v projections, RoPE and the cache
// writes, attention over each row's own session cache, the output projection and the
// residual.
#ifndef CPUBRRR_MODELS_COMMON_ATTENTION_BLOCK_H_
#define CPUBRRR_MODELS_COMMON_ATTENTION_BLOCK_H_

#include <cstdint>
#include <vector>

#include "models/common/model_config.h"
#include "models/common/moe_weights.h"
#include "models/common/pass_buffers.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

class AttentionBlock {
 public:
  AttentionBlock(const ModelConfig& config, int n_workers);

  // Adds layer il's attention output to buf.x for every row of the pass. Every worker
  // calls it; it synchronizes them between stages (first of all before it reads x).
  void Run(const WorkerContext& ctx, const LayerWeights& l, uint32_t il, PassBuffers& buf);

 private:
  // q/k norms, RoPE and the cache writes per (row, head); attention per (KV head, row);
  // the output's quantization for wo.
  void Attend(const WorkerContext& ctx, const LayerWeights& l, uint32_t il, PassBuffers& buf);

  ModelConfig c_;
  std::vector<std::vector<float>> value_lanes_;  // per worker: AxpyRowsToLanes's 64 lane rows
};

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_ATTENTION_BLOCK_H_
