// Q4_K x Q8_K kernel variants and the run-time choice among them.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_H_

#include <span>

#include "kernels/q4_k/q4_k_kernels.h"

namespace cpubrrr {

// Returns every variant built into this binary, best first; the last is "ref".
std::span<const Q4KKernels> AllQ4KVariants();

// Returns the first variant of AllQ4KVariants() whose features DetectCpuFeatures() has.
const Q4KKernels& BestQ4KKernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_H_
