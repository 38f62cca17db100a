// A layer's mixture-of-experts block over a pass: norm, router, routing, the routed
// experts' gate/up, activation and down as tasks, and their weighted sum into the residual.
#ifndef CPUBRRR_MODELS_COMMON_MOE_FEED_FORWARD_H_
#define CPUBRRR_MODELS_COMMON_MOE_FEED_FORWARD_H_

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "models/common/arch_spec.h"
#include "models/common/model_config.h"
#include "models/common/moe_weights.h"
#include "models/common/pass_buffers.h"
#include "runtime/threading/task_board.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

class MoeFeedForward {
 public:
  MoeFeedForward(const ModelConfig& config, const ArchSpec& spec, int max_rows, int n_workers);

  // Adds layer il's expert outputs to buf.x for every row of the pass. Every worker calls
  // it; it synchronizes them between stages (first of all before it reads x). Worker 0
  // calls `on_routed` with the experts the pass routed to (ascending) before they run.
  void Run(const WorkerContext& ctx, const LayerWeights& l, uint32_t il, PassBuffers& buf,
           absl::FunctionRef<void(const std::vector<uint32_t>& active)> on_routed);

 private:
  // Per worker: gate/up outputs of one expert, and the expert -> (row, slot) lists every
  // worker derives identically from the routing.
  struct Scratch {
    std::vector<float> gate, up;
    std::vector<std::vector<int32_t>> entries;  // per expert: row * k + slot, ascending
    std::vector<int32_t> entry_rows;  // the pass rows of one expert's entries
    std::vector<int32_t> down_row;  // per row * k + slot: its row of eo (experts' lists in order)
    std::vector<uint32_t> active;   // the experts with entries, ascending
  };

  void Experts(const WorkerContext& ctx, const LayerWeights& l, PassBuffers& buf);
  void GateUp(Scratch& s, MatMulScratch& mm, const LayerWeights& l, uint32_t e, Range rows, PassBuffers& buf);
  void Down(Scratch& s, MatMulScratch& mm, const LayerWeights& l, uint32_t e, Range rows, PassBuffers& buf);

  ModelConfig c_;
  ArchSpec spec_;
  TaskBoard tasks_;  // experts' gate/up and down tasks of a layer
  std::vector<Scratch> scratch_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_MOE_FEED_FORWARD_H_
