// KvCache: slots, ring wrap-around and f16 rounding.
#include "runtime/kv_cache/kv_cache.h"

#include <vector>

#include "gtest/gtest.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

TEST(KvCache, FullLayerKeepsEveryPositionRingLayerTheLastOnes) {
  absl::StatusOr<KvCache> cache = KvCache::Create({8, 3}, 2, KvCacheType::kF32);
  ASSERT_TRUE(cache.ok()) << cache.status();
  for (uint32_t p = 0; p < 8; ++p) {
    const float k[2] = {float(p), float(p) + 0.5f}, v[2] = {-float(p), 1.0f};
    cache->Store(0, p, 0, 2, k, v);
    cache->Store(1, p, 0, 2, k, v);
  }
  for (uint32_t p = 0; p < 8; ++p) EXPECT_EQ(cache->Key<float>(0, p)[1], float(p) + 0.5f);
  for (uint32_t p = 5; p < 8; ++p) EXPECT_EQ(cache->Value<float>(1, p)[0], -float(p));
  EXPECT_EQ(cache->bytes(), 2u * (8 + 3) * 2 * 4);
}

TEST(KvCache, F16CacheRoundsToHalf) {
  absl::StatusOr<KvCache> cache = KvCache::Create({4}, 3, KvCacheType::kF16);
  ASSERT_TRUE(cache.ok());
  const float k[3] = {1.0f / 3, 2.0f, -7.25f}, v[3] = {0.1f, 0.2f, 0.3f};
  cache->Store(0, 2, 0, 3, k, v);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(cache->Key<uint16_t>(0, 2)[i], Fp32ToFp16(k[i]));
    EXPECT_EQ(cache->Value<uint16_t>(0, 2)[i], Fp32ToFp16(v[i]));
  }
}

// A layer of 4 MiB (2 MiB pages) beside one of 4 KiB (the heap): every position of both
// reads back, and copies out and in round-trip.
TEST(KvCache, LargeAndSmallLayersHoldEveryPosition) {
  const uint32_t kv_dim = 512;
  absl::StatusOr<KvCache> cache = KvCache::Create({4096, 4}, kv_dim, KvCacheType::kF16);
  ASSERT_TRUE(cache.ok()) << cache.status();
  std::vector<float> k(kv_dim), v(kv_dim);
  for (uint32_t p = 0; p < 4096; ++p) {
    for (uint32_t i = 0; i < kv_dim; ++i) k[i] = float((p * 7 + i) % 2048), v[i] = -k[i];
    cache->Store(0, p, 0, kv_dim, k.data(), v.data());
    cache->Store(1, p, 0, kv_dim, k.data(), v.data());
  }
  for (uint32_t p : {0u, 1u, 2047u, 4095u}) {
    EXPECT_EQ(cache->Key<uint16_t>(0, p)[kv_dim - 1], Fp32ToFp16(float((p * 7 + kv_dim - 1) % 2048)));
    EXPECT_EQ(cache->Value<uint16_t>(0, p)[3], Fp32ToFp16(-float((p * 7 + 3) % 2048)));
  }
  EXPECT_EQ(cache->Key<uint16_t>(1, 4095)[5], Fp32ToFp16(float((4095 * 7 + 5) % 2048)));
  std::vector<uint8_t> copy(2 * 4096 * cache->row_bytes());
  cache->CopySlotsOut(0, 4096, copy.data());
  absl::StatusOr<KvCache> other = KvCache::Create({4096, 4}, kv_dim, KvCacheType::kF16);
  ASSERT_TRUE(other.ok());
  other->CopySlotsIn(0, 4096, copy.data());
  EXPECT_EQ(other->Value<uint16_t>(0, 4095)[kv_dim - 1], cache->Value<uint16_t>(0, 4095)[kv_dim - 1]);
}

TEST(KvCache, ZeroCapacityIsAnError) {
  EXPECT_FALSE(KvCache::Create({4, 0}, 3, KvCacheType::kF16).ok());
  EXPECT_FALSE(KvCache::Create({4}, 0, KvCacheType::kF16).ok());
}

}  // namespace
}  // namespace cpubrrr
