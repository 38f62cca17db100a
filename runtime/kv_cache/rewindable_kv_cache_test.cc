// RewindableKvCache against a direct reading of the ring: random passes, checkpoints and
// rewinds, each rewind checked for what the next pass needs and for keeping the most.
#include "runtime/kv_cache/rewindable_kv_cache.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

constexpr uint32_t kWindow = 5, kMaxPass = 4, kContext = 64;
constexpr uint32_t kRing = kWindow + kMaxPass - 1;  // what a model allocates for its rings

// A cache of one full layer and one ring layer whose key at position p holds p and a hash
// of the tokens 0..p, so a slot shows which prefix wrote it.
class Simulation {
 public:
  Simulation() : cache_(*KvCache::Create({kContext, kRing}, 2, KvCacheType::kF32), kContext, kWindow, 3) {}

  // Stores `n` positions of random tokens.
  void Pass(uint32_t n, std::mt19937& rng) {
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t p = cache_.position() + i;
      tokens_.resize(p);
      tokens_.push_back(rng() % 7);
      const float k[2] = {static_cast<float>(p), Tag(p)}, v[2] = {0, 0};
      for (uint32_t l = 0; l < 2; ++l) cache_.cache().Store(l, p, 0, 2, k, v);
    }
    cache_.Advance(n);
  }

  // Whether layer `l` holds position p of the current tokens.
  bool Holds(uint32_t l, uint32_t p) const {
    const float* k = cache_.cache().Key<float>(l, p);
    return k[0] == static_cast<float>(p) && k[1] == Tag(p);
  }
  // Whether a pass could continue at `q`: the full layer holds 0..q-1, the ring the
  // window before q.
  bool CanContinueAt(uint32_t q) const {
    for (uint32_t p = 0; p < q; ++p) {
      if (!Holds(0, p)) return false;
    }
    for (uint32_t p = q + 1 > kWindow ? q + 1 - kWindow : 0; p < q; ++p) {
      if (!Holds(1, p)) return false;
    }
    return true;
  }

  RewindableKvCache& cache() { return cache_; }

 private:
  float Tag(uint32_t p) const {
    uint32_t h = 17;
    for (uint32_t i = 0; i <= p; ++i) h = (h * 31 + tokens_[i]) % 1000003;
    return static_cast<float>(h);
  }

  RewindableKvCache cache_;
  std::vector<int32_t> tokens_;
};

TEST(RewindableKvCache, RewindsKeepTheLongestPrefixThatCanContinueExactly) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    Simulation sim;
    std::vector<uint32_t> checkpoints;  // what the test asked for and is still valid
    for (int step = 0; step < 40; ++step) {
      RewindableKvCache& c = sim.cache();
      const uint32_t room = kContext - c.position();
      if (room > 0 && rng() % 3 != 0) {
        sim.Pass(std::min<uint32_t>(room, 1 + rng() % kMaxPass), rng);
        if (rng() % 4 == 0) {
          c.Checkpoint();
          if (checkpoints.empty() || checkpoints.back() != c.position()) checkpoints.push_back(c.position());
          if (checkpoints.size() > 3) checkpoints.erase(checkpoints.begin());
        }
        continue;
      }
      const uint32_t target = rng() % (c.position() + 2);  // sometimes past the end
      const uint32_t t = std::min(target, c.position());
      // What to expect, read from the slots before the rewind.
      uint32_t expected = 0;
      if (sim.CanContinueAt(t)) {
        expected = t;
      } else {
        for (uint32_t cp : checkpoints) {
          if (cp <= t) expected = cp;
        }
      }
      EXPECT_EQ(c.KeepablePrefix(target), expected);
      EXPECT_EQ(c.Truncate(target), expected);
      EXPECT_EQ(c.position(), expected);
      EXPECT_TRUE(sim.CanContinueAt(expected)) << "round " << round << " step " << step;
      while (!checkpoints.empty() && checkpoints.back() > expected) checkpoints.pop_back();
      EXPECT_EQ(c.checkpoints(), checkpoints.size());
    }
  }
}

TEST(RewindableKvCache, TruncateToZeroAlwaysEmpties) {
  std::mt19937 rng(3);
  Simulation sim;
  sim.Pass(4, rng);
  sim.cache().Checkpoint();
  for (int i = 0; i < 10; ++i) sim.Pass(4, rng);
  EXPECT_EQ(sim.cache().Truncate(0), 0u);
  EXPECT_EQ(sim.cache().checkpoints(), 0u);
  EXPECT_EQ(sim.cache().checkpoint_bytes(), 0u);
}

TEST(RewindableKvCache, ACheckpointBringsBackAPositionTheRingHasPassed) {
  std::mt19937 rng(5);
  Simulation sim;
  sim.Pass(3, rng);
  sim.cache().Checkpoint();
  // A copy holds the ring's written slots, keys and values: 3 positions of 2 floats each.
  EXPECT_EQ(sim.cache().checkpoint_bytes(), 2u * 3 * 2 * sizeof(float));
  for (int i = 0; i < 10; ++i) sim.Pass(4, rng);
  EXPECT_FALSE(sim.CanContinueAt(3));  // the ring has moved on
  EXPECT_EQ(sim.cache().Truncate(20), 3u);
  EXPECT_TRUE(sim.CanContinueAt(3));
}

TEST(RewindableKvCache, WithoutRingsEveryRewindIsHonoured) {
  RewindableKvCache c(*KvCache::Create({16, 16}, 2, KvCacheType::kF16), 16, 4, 3);
  c.Advance(16);
  c.Checkpoint();  // nothing to copy
  EXPECT_EQ(c.checkpoints(), 0u);
  EXPECT_EQ(c.Truncate(1), 1u);
  EXPECT_EQ(c.Truncate(5), 1u);  // nothing beyond the position
}

}  // namespace
}  // namespace cpubrrr
