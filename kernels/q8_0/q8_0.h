// Q8_0 kernels: the variant list in priority order and the best one for this CPU.
#ifndef CPUBRRR_KERNELS_Q8_0_Q8_0_H_
#define CPUBRRR_KERNELS_Q8_0_Q8_0_H_

#include <span>

#include "kernels/q8_0/q8_0_kernels.h"

namespace cpubrrr {

// Returns every variant built for this target, best first; the last is "ref".
std::span<const Q8_0Kernels> AllQ8_0Variants();

// Returns the first variant of AllQ8_0Variants() whose features DetectCpuFeatures() has.
const Q8_0Kernels& BestQ8_0Kernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_0_Q8_0_H_
