// Which prefixes a cache with sliding-window rings can continue from, and ring checkpoints.
#include "runtime/kv_cache/rewindable_kv_cache.h"

#include <algorithm>
#include <utility>

namespace cpubrrr {

RewindableKvCache::RewindableKvCache(KvCache cache, uint32_t context, uint32_t window,
                                     size_t max_checkpoints)
    : cache_(std::move(cache)), window_(window), max_checkpoints_(max_checkpoints) {
  for (uint32_t l = 0; l < cache_.n_layer(); ++l) {
    if (cache_.capacity(l) < context) rings_.push_back(l);
  }
}

template <typename Fn>
size_t RewindableKvCache::ForEachRing(uint32_t position, Fn&& fn) const {
  size_t at = 0;
  for (uint32_t l : rings_) {
    const uint32_t slots = std::min(position, cache_.capacity(l));
    fn(l, slots, at);
    at += 2 * size_t{slots} * cache_.row_bytes();
  }
  return at;
}

bool RewindableKvCache::RingsReach(uint32_t target) const {
  if (target == 0 || target == position_) return true;
  for (uint32_t l : rings_) {
    const uint64_t cap = cache_.capacity(l);
    // Continuing at `target` reads from target+1-window on.
    if (written_end_ > cap && uint64_t{written_end_} - target + window_ > cap + 1) return false;
  }
  return true;
}

uint32_t RewindableKvCache::KeepablePrefix(uint32_t target) const {
  target = std::min(target, position_);
  if (RingsReach(target)) return target;
  for (auto it = checkpoints_.rbegin(); it != checkpoints_.rend(); ++it) {
    if (it->position <= target) return it->position;
  }
  return 0;
}

uint32_t RewindableKvCache::Truncate(uint32_t target) {
  target = std::min(target, position_);
  const uint32_t kept = KeepablePrefix(target);
  while (!checkpoints_.empty() && checkpoints_.back().position > kept) checkpoints_.pop_back();
  if (kept != 0 && !RingsReach(kept)) {
    // `kept` is the newest checkpoint left: put its rings back as they were.
    const RingCopy& copy = checkpoints_.back();
    ForEachRing(copy.written_end, [&](uint32_t l, uint32_t slots, size_t at) {
      cache_.CopySlotsIn(l, slots, copy.bytes.data() + at);
    });
    written_end_ = copy.written_end;
  }
  if (kept == 0) written_end_ = 0;
  position_ = kept;
  return kept;
}

void RewindableKvCache::Checkpoint() {
  if (rings_.empty() || position_ == 0 || max_checkpoints_ == 0) return;
  if (!checkpoints_.empty() && checkpoints_.back().position == position_) return;
  RingCopy copy;
  if (checkpoints_.size() == max_checkpoints_) {
    copy.bytes = std::move(checkpoints_.front().bytes);  // reuse the oldest one's buffer
    checkpoints_.pop_front();
  }
  copy.position = position_;
  copy.written_end = written_end_;
  copy.bytes.resize(ForEachRing(written_end_, [](uint32_t, uint32_t, size_t) {}));
  ForEachRing(written_end_, [&](uint32_t l, uint32_t slots, size_t at) {
    cache_.CopySlotsOut(l, slots, copy.bytes.data() + at);
  });
  checkpoints_.push_back(std::move(copy));
}

uint64_t RewindableKvCache::checkpoint_bytes() const {
  uint64_t bytes = 0;
  for (const RingCopy& c : checkpoints_) bytes += c.bytes.size();
  return bytes;
}

}  // namespace cpubrrr
