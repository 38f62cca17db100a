// Random MXFP4 weight blocks for the MXFP4 kernel tests.
#ifndef CPUBRRR_KERNELS_MXFP4_MXFP4_TEST_UTIL_H_
#define CPUBRRR_KERNELS_MXFP4_MXFP4_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "quant/mxfp4.h"

namespace cpubrrr::testing {

// Returns n blocks with random codes and exponents uniform in [e_lo, e_hi].
inline std::vector<BlockMxfp4> RandomMxfp4Blocks(size_t n, int e_lo, int e_hi, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255), e(e_lo, e_hi);
  std::vector<BlockMxfp4> w(n);
  for (BlockMxfp4& b : w) {
    b.e = static_cast<uint8_t>(e(rng));
    for (uint8_t& q : b.qs) q = static_cast<uint8_t>(byte(rng));
  }
  return w;
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_MXFP4_MXFP4_TEST_UTIL_H_
