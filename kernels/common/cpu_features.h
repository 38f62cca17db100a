// Run-time detection of the CPU features that kernel variants require.
#ifndef CPUBRRR_KERNELS_COMMON_CPU_FEATURES_H_
#define CPUBRRR_KERNELS_COMMON_CPU_FEATURES_H_

#include <cstdint>
#include <string>

namespace cpubrrr {

// Feature bits; a kernel variant lists the ones it needs.
enum CpuFeature : uint32_t {
  kCpuNone = 0,
  kCpuAvx2 = 1u << 0,        // AVX2 + FMA + F16C
  kCpuAvx512 = 1u << 1,      // AVX-512 F, BW, DQ, VL
  kCpuAvx512Vnni = 1u << 2,  // AVX-512 VNNI (vpdpbusd on zmm)
  kCpuAvxVnni = 1u << 3,     // AVX-VNNI (vpdpbusd on ymm, VEX-encoded: Intel client cores, Zen 5)
  kCpuNeon = 1u << 8,        // Advanced SIMD (every aarch64 CPU)
  kCpuNeonDot = 1u << 9,     // SDOT / UDOT
  kCpuSme = 1u << 11,        // Scalable Matrix Extension
};

using CpuFeatures = uint32_t;

// Returns the features of the CPU this process runs on (detected once, then cached).
// Setting the environment variable CPUBRRR_CPU_MASK to a hex mask limits the result
// to those bits, so tests and benchmarks can force a lesser variant.
CpuFeatures DetectCpuFeatures();

// Returns true when every bit of `required` is present.
inline bool HasFeatures(CpuFeatures have, CpuFeatures required) {
  return (have & required) == required;
}

// Returns the CPU's vendor string from CPUID leaf 0 ("GenuineIntel", "AuthenticAMD"), or
// an empty string on other architectures.
std::string CpuVendor();

// Returns the feature names separated by spaces, for logs and benchmark labels.
std::string CpuFeatureNames(CpuFeatures features);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_CPU_FEATURES_H_
