// Random Q4_K weight blocks and the block of largest values, for the Q4_K kernel tests.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_TEST_UTIL_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_TEST_UTIL_H_

#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include "quant/fp16.h"
#include "quant/q4_k.h"
#include "quant/test_util.h"

namespace cpubrrr::testing {

// Returns random blocks (every nibble, scale and min pattern) whose d and dmin lie in
// 2^-14 .. 2^-4, the range real files use, so no float step overflows.
inline std::vector<BlockQ4K> RandomQ4KWeights(size_t count, std::mt19937& rng) {
  return RandomBlocks<BlockQ4K>(count, rng, [&](BlockQ4K& b) {
    std::uniform_real_distribution<float> scale(1.0f / 16384, 1.0f / 16);
    b.d = Fp32ToFp16(scale(rng));
    b.dmin = Fp32ToFp16(scale(rng));
  });
}

// Returns a block with every scale, min and nibble at its maximum (63, 63, 15), d = 1 and
// dmin = 0.5.
inline BlockQ4K FullQ4KBlock() {
  BlockQ4K full{};
  full.d = 0x3C00;     // 1.0
  full.dmin = 0x3800;  // 0.5
  std::memset(full.scales, 0xFF, sizeof(full.scales));
  std::memset(full.qs, 0xFF, sizeof(full.qs));
  return full;
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_TEST_UTIL_H_
