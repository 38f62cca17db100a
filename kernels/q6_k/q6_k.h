// Q6_K x Q8_K kernel variants and the run-time choice among them.
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_H_

#include <span>

#include "kernels/q6_k/q6_k_kernels.h"

namespace cpubrrr {

// Returns every variant built into this binary, best first; the last is "ref".
std::span<const Q6KKernels> AllQ6KVariants();

// Returns the first variant of AllQ6KVariants() whose features DetectCpuFeatures() has.
const Q6KKernels& BestQ6KKernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_H_
