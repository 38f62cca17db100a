// MXFP4 x Q8_0 kernels: the variant list in priority order and the best one for this CPU.
#ifndef CPUBRRR_KERNELS_MXFP4_MXFP4_H_
#define CPUBRRR_KERNELS_MXFP4_MXFP4_H_

#include <span>

#include "kernels/mxfp4/mxfp4_kernels.h"

namespace cpubrrr {

// Returns every variant built for this target, best first; the last is "ref".
std::span<const Mxfp4Kernels> AllMxfp4Variants();

// Returns the first variant of AllMxfp4Variants() whose features DetectCpuFeatures() has.
const Mxfp4Kernels& BestMxfp4Kernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_MXFP4_MXFP4_H_
