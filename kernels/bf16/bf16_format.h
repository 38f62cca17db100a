// The bf16 weight format's descriptor (kernels/common/weight_format.h) for this CPU.
#ifndef CPUBRRR_KERNELS_BF16_BF16_FORMAT_H_
#define CPUBRRR_KERNELS_BF16_BF16_FORMAT_H_

#include "kernels/common/weight_format.h"

namespace cpubrrr {

const WeightFormat& Bf16Format();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_BF16_BF16_FORMAT_H_
