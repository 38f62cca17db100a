// The f32 weight format's descriptor (kernels/common/weight_format.h).
#ifndef CPUBRRR_KERNELS_F32_F32_FORMAT_H_
#define CPUBRRR_KERNELS_F32_F32_FORMAT_H_

#include "kernels/common/weight_format.h"

namespace cpubrrr {

const WeightFormat& F32Format();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_F32_FORMAT_H_
