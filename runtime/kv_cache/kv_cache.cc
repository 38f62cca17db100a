// KvCache allocation and f32 / f16 stores.
#include "runtime/kv_cache/kv_cache.h"

#include <cstring>
#include <new>

#include "absl/status/status.h"
#include "kernels/common/huge_pages.h"
#include "quant/fp16.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {
namespace {

size_t ElementBytes(KvCacheType type) { return type == KvCacheType::kF32 ? 4 : 2; }

constexpr size_t kHugePageBytes = size_t{2} << 20;

// Returns `bytes` untouched, in 2 MiB pages from one page's worth on, or null.
KvBuffer AllocateLayer(size_t bytes) {
  if (bytes < kHugePageBytes) return KvBuffer(new (std::nothrow) uint8_t[bytes], KvBufferFree{false});
  return KvBuffer(static_cast<uint8_t*>(TryAllocateHugePages(bytes).release()), KvBufferFree{true});
}

}  // namespace

void KvBufferFree::operator()(uint8_t* p) const {
  if (huge_pages) {
    HugePagesFree()(p);
  } else {
    delete[] p;
  }
}

uint64_t KvCache::BytesFor(const std::vector<uint32_t>& capacity, uint32_t kv_dim,
                           KvCacheType type) {
  uint64_t bytes = 0;
  for (uint32_t c : capacity) bytes += 2ull * c * kv_dim * ElementBytes(type);
  return bytes;
}

absl::StatusOr<KvCache> KvCache::Create(std::vector<uint32_t> capacity, uint32_t kv_dim,
                                        KvCacheType type) {
  if (kv_dim == 0) return absl::InvalidArgumentError("kv cache: zero kv dimension");
  KvCache cache(std::move(capacity), kv_dim, type);
  for (uint32_t l = 0; l < cache.capacity_.size(); ++l) {
    if (cache.capacity_[l] == 0) return absl::InvalidArgumentError(Cat("kv cache: layer ", l, " holds 0 positions"));
    const size_t bytes = static_cast<size_t>(cache.capacity_[l]) * kv_dim * ElementBytes(type);
    cache.keys_.push_back(AllocateLayer(bytes));
    cache.values_.push_back(AllocateLayer(bytes));
    if (!cache.keys_.back() || !cache.values_.back()) {
      return absl::ResourceExhaustedError(
          Cat("kv cache: cannot allocate ", 2 * bytes, " bytes for layer ", l));
    }
  }
  return cache;
}

size_t KvCache::row_bytes() const { return size_t{kv_dim_} * ElementBytes(type_); }

void KvCache::CopySlotsOut(uint32_t layer, uint32_t n, uint8_t* out) const {
  const size_t bytes = n * row_bytes();
  std::memcpy(out, keys_[layer].get(), bytes);
  std::memcpy(out + bytes, values_[layer].get(), bytes);
}

void KvCache::CopySlotsIn(uint32_t layer, uint32_t n, const uint8_t* in) {
  const size_t bytes = n * row_bytes();
  std::memcpy(keys_[layer].get(), in, bytes);
  std::memcpy(values_[layer].get(), in + bytes, bytes);
}

void KvCache::Store(uint32_t layer, uint32_t pos, uint32_t offset, uint32_t n, const float* k,
                    const float* v) {
  const size_t at = Slot(layer, pos) + offset;
  if (type_ == KvCacheType::kF32) {
    std::memcpy(reinterpret_cast<float*>(keys_[layer].get()) + at, k, n * sizeof(float));
    std::memcpy(reinterpret_cast<float*>(values_[layer].get()) + at, v, n * sizeof(float));
    return;
  }
  uint16_t* kd = reinterpret_cast<uint16_t*>(keys_[layer].get()) + at;
  uint16_t* vd = reinterpret_cast<uint16_t*>(values_[layer].get()) + at;
  for (uint32_t i = 0; i < n; ++i) {
    kd[i] = Fp32ToFp16(k[i]);
    vd[i] = Fp32ToFp16(v[i]);
  }
}

}  // namespace cpubrrr
