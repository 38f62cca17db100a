// Test helpers for float kernels: every compiled Highway target, random data, error bounds.
#ifndef CPUBRRR_KERNELS_F32_TEST_UTIL_H_
#define CPUBRRR_KERNELS_F32_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace cpubrrr::testing {

// Fixed seed of every randomized float-kernel test; failure messages print it.
inline constexpr uint32_t kF32Seed = 0xF32C0DEu;

// Unit roundoff of float: a rounded operation has relative error at most kU.
inline constexpr double kU = 0x1p-24;

// Returns the classic bound gamma_k = k u / (1 - k u) on the relative error of k
// float operations in sequence (Higham, Accuracy and Stability, section 3.1).
double Gamma(double k);

// Runs `body` once per Highway target this CPU supports and the binary contains
// (AVX3, AVX2, SSE4, ... or SVE2, NEON, ...), with dynamic dispatch forced to that
// target; restores normal dispatch afterwards. Adds the target name to failures.
void ForEachHwyTarget(const std::function<void()>& body);

// Returns n floats drawn from N(0, sigma).
std::vector<float> RandomNormal(size_t n, float sigma, std::mt19937& rng);

// Returns n floats drawn from U(lo, hi).
std::vector<float> RandomUniform(size_t n, float lo, float hi, std::mt19937& rng);

// Sizes around every vector width we build for (1 lane on SCALAR, 4, 8, 16) and their 4x
// unrolls, plus the model sizes.
inline constexpr size_t kEdgeSizes[] = {1,  2,  3,  4,  5,  7,  8,  9,   15,  16,  17,
                                        31, 32, 33, 63, 64, 65, 127, 128, 129, 2048, 2880};

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_F32_TEST_UTIL_H_
