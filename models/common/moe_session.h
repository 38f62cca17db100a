// One sequence of the shared MoE pass: its KV cache (rings for sliding-window layers) and
// the per-worker rows attention scores its tokens into.
#ifndef CPUBRRR_MODELS_COMMON_MOE_SESSION_H_
#define CPUBRRR_MODELS_COMMON_MOE_SESSION_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/kv_cache/kv_cache.h"
#include "runtime/kv_cache/rewindable_kv_cache.h"
#include "runtime/model/model.h"

namespace cpubrrr {

class MoeSession : public Session {
 public:
  // `owner`: the model that made it (a pass refuses another model's sessions).
  MoeSession(const void* owner, RewindableKvCache cache, uint32_t context, int n_workers,
             uint32_t heads_per_kv)
      : owner_(owner), cache_(std::move(cache)), context_(context),
        scores_(n_workers, std::vector<float>(size_t{heads_per_kv} * score_stride())) {}

  uint32_t position() const override { return cache_.position(); }
  uint32_t context_length() const override { return context_; }
  uint32_t KeepablePrefix(uint32_t position) const override { return cache_.KeepablePrefix(position); }
  uint32_t Truncate(uint32_t position) override { return cache_.Truncate(position); }
  void Checkpoint() override { cache_.Checkpoint(); }

  const void* owner() const { return owner_; }
  KvCache& cache() { return cache_.cache(); }
  // A worker's score rows, one per query head of a KV head, score_stride() floats apart.
  float* scores(int worker) { return scores_[worker].data(); }
  // Room for every position plus the 16-aligned -inf padding around them.
  size_t score_stride() const { return size_t{context_} + 32; }
  void Advance(uint32_t n) { cache_.Advance(n); }

 private:
  const void* owner_;
  RewindableKvCache cache_;
  uint32_t context_;
  std::vector<std::vector<float>> scores_;  // per worker
};

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_MOE_SESSION_H_
