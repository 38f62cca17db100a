// Random Q6_K weight blocks and an element's quant, for the Q6_K kernel tests.
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_TEST_UTIL_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "quant/fp16.h"
#include "quant/q6_k.h"
#include "quant/test_util.h"

namespace cpubrrr::testing {

// Returns random blocks (every quant and int8 scale pattern) whose d lies in 2^-14 ..
// 2^-4, the range real files use, so no float step overflows.
inline std::vector<BlockQ6K> RandomQ6KWeights(size_t count, std::mt19937& rng) {
  return RandomBlocks<BlockQ6K>(count, rng, [&](BlockQ6K& b) {
    std::uniform_real_distribution<float> scale(1.0f / 16384, 1.0f / 16);
    b.d = Fp32ToFp16(scale(rng));
  });
}

// Returns quant i (0..63, unbiased) of block b, per the layout in quant/q6_k.h.
inline int Q6KQuant(const BlockQ6K& b, int i) {
  const int h = i / 128, l = i % 32, part = (i % 128) / 32;
  const uint8_t ql = b.ql[64 * h + l + 32 * (part % 2)];
  const int low = part < 2 ? ql & 0xF : ql >> 4;
  return low | (((b.qh[32 * h + l] >> (2 * part)) & 3) << 4);
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_TEST_UTIL_H_
