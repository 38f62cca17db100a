// The Q8_0 weight format's descriptor (kernels/common/weight_format.h) for this CPU.
#ifndef CPUBRRR_KERNELS_Q8_0_Q8_0_FORMAT_H_
#define CPUBRRR_KERNELS_Q8_0_Q8_0_FORMAT_H_

#include "kernels/common/weight_format.h"

namespace cpubrrr {

const WeightFormat& Q8_0Format();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_0_Q8_0_FORMAT_H_
