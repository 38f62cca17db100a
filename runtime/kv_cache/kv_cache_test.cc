// KvCache: slots, ring wrap-around and f16 rounding.
#include "runtime/kv_cache/kv_cache.h"

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

TEST(KvCache, ZeroCapacityIsAnError) {
  EXPECT_FALSE(KvCache::Create({4, 0}, 3, KvCacheType::kF16).ok());
  EXPECT_FALSE(KvCache::Create({4}, 0, KvCacheType::kF16).ok());
}

}  // namespace
}  // namespace cpubrrr
