// Q8_K activation quantizer variants and the run-time choice among them.
#ifndef CPUBRRR_KERNELS_Q8_K_Q8_K_H_
#define CPUBRRR_KERNELS_Q8_K_Q8_K_H_

#include <span>

#include "kernels/q8_k/q8_k_kernels.h"

namespace cpubrrr {

// Returns every variant built into this binary, best first; the last is "ref".
std::span<const Q8KQuantizer> AllQ8KQuantizers();

// Returns the first variant of AllQ8KQuantizers() whose features DetectCpuFeatures() has.
const Q8KQuantizer& BestQ8KQuantizer();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_K_Q8_K_H_
