// Skips a kernel variant's test where the CPU lacks its features, except SME under qemu.
#ifndef CPUBRRR_KERNELS_TESTING_VARIANT_TEST_UTIL_H_
#define CPUBRRR_KERNELS_TESTING_VARIANT_TEST_UTIL_H_

#include <cstdlib>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"

namespace cpubrrr::testing {

// For a fixture's SetUp: marks the test skipped when this CPU lacks a feature `kernels`
// (a variant table entry: name, required) needs, and failed instead when the variant is
// SME and CPUBRRR_EXPECT_SME is set (the qemu runner sets it: there SME must run).
template <typename Kernels>
void SkipUnlessCpuRuns(const Kernels& kernels) {
  if (HasFeatures(DetectCpuFeatures(), kernels.required)) return;
  if ((kernels.required & kCpuSme) && std::getenv("CPUBRRR_EXPECT_SME") != nullptr) {
    FAIL() << kernels.name << " would be skipped but CPUBRRR_EXPECT_SME is set; CPU has "
           << CpuFeatureNames(DetectCpuFeatures());
  }
  GTEST_SKIP() << kernels.name << " needs " << CpuFeatureNames(kernels.required)
               << "; this CPU has " << CpuFeatureNames(DetectCpuFeatures());
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_TESTING_VARIANT_TEST_UTIL_H_
