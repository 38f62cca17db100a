// Checks the word-wise Q4_K scale unpacking against quant's GetScaleMinK4 on every byte value.
#include <random>

#include "gtest/gtest.h"
#include "kernels/kquant/q4_k_scales.h"
#include "quant/q4_k.h"

namespace cpubrrr {
namespace {

TEST(Q4KScales, MatchesGetScaleMinK4) {
  constexpr uint32_t kSeed = 0x5CA1E5u;
  std::mt19937 rng(kSeed);
  for (int trial = 0; trial < 20000; ++trial) {
    uint8_t packed[12];
    // The first 256 trials fill every byte with one value, covering every bit pattern.
    for (uint8_t& p : packed) p = static_cast<uint8_t>(trial < 256 ? trial : rng());
    const Q4KScalesMins u = UnpackQ4KScales(packed);
    for (int j = 0; j < 8; ++j) {
      uint8_t sc, m;
      GetScaleMinK4(j, packed, &sc, &m);
      ASSERT_EQ((u.sc >> (8 * j)) & 0xFF, sc) << "trial " << trial << " j " << j << " seed " << kSeed;
      ASSERT_EQ((u.m >> (8 * j)) & 0xFF, m) << "trial " << trial << " j " << j << " seed " << kSeed;
    }
  }
}

}  // namespace
}  // namespace cpubrrr
