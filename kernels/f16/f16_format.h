// The f16 weight format's descriptor (kernels/common/weight_format.h) for this CPU.
#ifndef CPUBRRR_KERNELS_F16_F16_FORMAT_H_
#define CPUBRRR_KERNELS_F16_F16_FORMAT_H_

#include "kernels/common/weight_format.h"

namespace cpubrrr {

const WeightFormat& F16Format();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F16_F16_FORMAT_H_
