// The Q4_K weight format's descriptor (kernels/common/weight_format.h) for this CPU.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_FORMAT_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_FORMAT_H_

#include "kernels/common/weight_format.h"

namespace cpubrrr {

const WeightFormat& Q4KFormat();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_FORMAT_H_
