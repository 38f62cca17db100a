// Test helpers for block-dot kernels: random Q8_0 activations and the float error bound.
#ifndef CPUBRRR_KERNELS_TESTING_DOT_TEST_UTIL_H_
#define CPUBRRR_KERNELS_TESTING_DOT_TEST_UTIL_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "quant/fp16.h"
#include "quant/q8_0.h"

namespace cpubrrr::testing {

// Fixed seed of every randomized kernel test; failure messages print it.
inline constexpr uint32_t kKernelSeed = 0xC0FFEE17u;

// Returns n_blocks Q8_0 blocks with quants uniform in -127..127 (the quantizer's range)
// and scale `d` (fp16 bits) for every block.
inline std::vector<BlockQ8_0> RandomQ8_0Blocks(size_t n_blocks, uint16_t d, std::mt19937& rng) {
  std::uniform_int_distribution<int> q(-127, 127);
  std::vector<BlockQ8_0> out(n_blocks);
  for (BlockQ8_0& b : out) {
    b.d = d;
    for (int8_t& v : b.qs) v = static_cast<int8_t>(q(rng));
  }
  return out;
}

// Returns fp16 bits of 2^k for -14 <= k <= 15 (normal fp16 powers of two).
inline uint16_t Fp16PowerOfTwo(int k) { return static_cast<uint16_t>((k + 15) << 10); }

// Error bound of a variant against the oracle for one dot product. Both compute the exact
// value E = sum_b d_b * isum_b with float steps: each block term passes through at most
// 3 roundings (scale product, term product, in SIMD variants a split into lane partials),
// and at most n_blocks + 24 additions lie on any path to the result (n_blocks block
// steps, a 16-lane horizontal reduction, and a few combines). With u = 2^-24 and
// k = n_blocks + 27, each result is within gamma_k * A of E (Higham, Accuracy and
// Stability, 2nd ed., eq. 3.5), where A = sum_b |d_b| sum_i |w_i x_i| bounds every partial
// sum; gradual underflow adds at most 2^-149 per step. Hence
// |variant - oracle| <= 2 * (gamma_k * A + k * 2^-149).
inline double DotErrorBound(double abs_sum, size_t n_blocks) {
  const double k = static_cast<double>(n_blocks) + 27.0;
  const double u = std::ldexp(1.0, -24);
  const double gamma = k * u / (1.0 - k * u);
  return 2.0 * (gamma * abs_sum + k * std::ldexp(1.0, -149));
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_TESTING_DOT_TEST_UTIL_H_
