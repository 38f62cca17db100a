// Per-layer key/value cache: full layers hold the whole context, sliding layers a ring.
#ifndef CPUBRRR_RUNTIME_KV_CACHE_KV_CACHE_H_
#define CPUBRRR_RUNTIME_KV_CACHE_KV_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"

namespace cpubrrr {

enum class KvCacheType { kF32, kF16 };

// Frees one layer's keys or values, from 2 MiB pages or from the heap.
struct KvBufferFree {
  bool huge_pages = false;
  void operator()(uint8_t* p) const;
};
using KvBuffer = std::unique_ptr<uint8_t[], KvBufferFree>;

// Keys and values of `kv_dim` elements per position for each layer. Layer l holds
// `capacity[l]` positions; position p lives in slot p % capacity[l], so a layer whose
// capacity is below the context length is a ring that keeps the most recent positions.
// Memory is allocated untouched (the OS maps pages on first write), a layer of at least
// 2 MiB in 2 MiB pages: attention reads a head's few lines a whole row apart, which on 4 KiB
// pages misses the TLB every few positions.
class KvCache {
 public:
  // Returns a cache for `capacity.size()` layers, or ResourceExhausted when it cannot
  // be allocated, InvalidArgument for a zero capacity or dimension.
  static absl::StatusOr<KvCache> Create(std::vector<uint32_t> capacity, uint32_t kv_dim,
                                        KvCacheType type);

  // Returns the bytes a cache of these dimensions needs.
  static uint64_t BytesFor(const std::vector<uint32_t>& capacity, uint32_t kv_dim,
                           KvCacheType type);

  KvCacheType type() const { return type_; }
  uint32_t kv_dim() const { return kv_dim_; }
  uint32_t n_layer() const { return static_cast<uint32_t>(capacity_.size()); }
  uint32_t capacity(uint32_t layer) const { return capacity_[layer]; }
  uint64_t bytes() const { return BytesFor(capacity_, kv_dim_, type_); }
  // Returns the bytes of one position's key row (a value row is as long).
  size_t row_bytes() const;

  // Copy the keys and values of slots [0, n) of `layer` to `out` / back from `in`
  // (2 * n * row_bytes() bytes: the keys, then the values).
  void CopySlotsOut(uint32_t layer, uint32_t n, uint8_t* out) const;
  void CopySlotsIn(uint32_t layer, uint32_t n, const uint8_t* in);

  // Writes `n` elements of key `k` and value `v` at element offset `offset` of
  // position `pos` in layer `layer` (rounding to f16 for an f16 cache).
  void Store(uint32_t layer, uint32_t pos, uint32_t offset, uint32_t n, const float* k,
             const float* v);

  // Return the first element of position `pos`'s key / value row in `layer`; T is float
  // for an f32 cache and uint16_t (fp16 bits) for an f16 cache.
  template <typename T>
  const T* Key(uint32_t layer, uint32_t pos) const {
    return reinterpret_cast<const T*>(keys_[layer].get()) + Slot(layer, pos);
  }
  template <typename T>
  const T* Value(uint32_t layer, uint32_t pos) const {
    return reinterpret_cast<const T*>(values_[layer].get()) + Slot(layer, pos);
  }

 private:
  KvCache(std::vector<uint32_t> capacity, uint32_t kv_dim, KvCacheType type)
      : capacity_(std::move(capacity)), kv_dim_(kv_dim), type_(type) {}
  // Returns the element offset of position `pos`'s row.
  size_t Slot(uint32_t layer, uint32_t pos) const {
    return static_cast<size_t>(pos % capacity_[layer]) * kv_dim_;
  }

  std::vector<uint32_t> capacity_;
  uint32_t kv_dim_;
  KvCacheType type_;
  std::vector<KvBuffer> keys_;
  std::vector<KvBuffer> values_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_KV_CACHE_KV_CACHE_H_
