// A session's KV cache with its fill position, and the rewinds it can honour exactly:
// sliding-window rings that have moved past a rewind target fall back to a checkpoint of
// the rings, or to an empty cache.
#ifndef CPUBRRR_RUNTIME_KV_CACHE_REWINDABLE_KV_CACHE_H_
#define CPUBRRR_RUNTIME_KV_CACHE_REWINDABLE_KV_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <deque>
#include <vector>

#include "runtime/kv_cache/kv_cache.h"

namespace cpubrrr {

// Positions 0..position()-1 are in the cache. A layer whose capacity is below the context
// is a ring whose query at position p reads positions p+1-window..p, so continuing from
// position q needs q+1-window..q-1 still in the ring. A rewind further back than the ring
// allows returns to the latest checkpoint at or before its target, else to position 0;
// the positions kept are then exactly what a fresh cache fed the same passes would hold.
class RewindableKvCache {
 public:
  // `window`: the positions a ring layer's query reads, its own included (ignored when no
  // layer is a ring). Keeps at most `max_checkpoints` checkpoints, dropping the oldest.
  RewindableKvCache(KvCache cache, uint32_t context, uint32_t window, size_t max_checkpoints);

  KvCache& cache() { return cache_; }
  const KvCache& cache() const { return cache_; }
  uint32_t position() const { return position_; }
  // Records that positions position()..position()+n-1 were stored.
  void Advance(uint32_t n) {
    position_ += n;
    written_end_ = std::max(written_end_, position_);
  }

  // Returns the longest prefix of at most `target` positions (and at most position())
  // that Truncate keeps.
  uint32_t KeepablePrefix(uint32_t target) const;
  // Drops every position from KeepablePrefix(target) on, restoring the rings from a
  // checkpoint when that is where the prefix ends, and returns the prefix's length.
  uint32_t Truncate(uint32_t target);
  // Copies the rings at the current position, so that a later Truncate to here or beyond
  // can come back to it. Does nothing without rings or at position 0.
  void Checkpoint();

  size_t checkpoints() const { return checkpoints_.size(); }
  // Returns the bytes the checkpoints hold.
  uint64_t checkpoint_bytes() const;

 private:
  struct RingCopy {
    uint32_t position;
    uint32_t written_end;        // written_end_ when the copy was made
    std::vector<uint8_t> bytes;  // per ring layer, CopySlotsOut of its written slots
  };
  // Calls fn(layer, slots, offset) for each ring layer: the slots a copy at `position`
  // holds of it and where they start in the copy. Returns the copy's size in bytes.
  template <typename Fn>
  size_t ForEachRing(uint32_t position, Fn&& fn) const;
  // Whether the rings still hold the window before `target`.
  bool RingsReach(uint32_t target) const;

  KvCache cache_;
  uint32_t window_;
  size_t max_checkpoints_;
  std::vector<uint32_t> rings_;     // the layers whose capacity is below the context
  std::deque<RingCopy> checkpoints_;  // ascending positions, all at most position_
  uint32_t position_ = 0;
  // One past the highest position stored since the cache was last emptied or restored: a
  // ring of capacity c holds positions written_end_-c..position_-1 (a rewind leaves
  // positions position_..written_end_-1 in their slots, to be overwritten).
  uint32_t written_end_ = 0;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_KV_CACHE_REWINDABLE_KV_CACHE_H_
