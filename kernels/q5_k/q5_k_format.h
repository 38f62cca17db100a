// The Q5_K weight format's descriptor (kernels/common/weight_format.h) for this CPU.
#ifndef CPUBRRR_KERNELS_Q5_K_Q5_K_FORMAT_H_
#define CPUBRRR_KERNELS_Q5_K_Q5_K_FORMAT_H_

#include "kernels/common/weight_format.h"

namespace cpubrrr {

const WeightFormat& Q5KFormat();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q5_K_Q5_K_FORMAT_H_
