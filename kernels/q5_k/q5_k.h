// Q5_K x Q8_K kernel variants and the run-time choice among them.
#ifndef CPUBRRR_KERNELS_Q5_K_Q5_K_H_
#define CPUBRRR_KERNELS_Q5_K_Q5_K_H_

#include <span>

#include "kernels/q5_k/q5_k_kernels.h"

namespace cpubrrr {

// Returns every variant built into this binary, best first; the last is "ref".
std::span<const Q5KKernels> AllQ5KVariants();

// Returns the first variant of AllQ5KVariants() whose features DetectCpuFeatures() has.
const Q5KKernels& BestQ5KKernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q5_K_Q5_K_H_
