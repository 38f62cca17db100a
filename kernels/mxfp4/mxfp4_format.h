// The MXFP4 weight format's descriptor (kernels/common/weight_format.h) for this CPU.
#ifndef CPUBRRR_KERNELS_MXFP4_MXFP4_FORMAT_H_
#define CPUBRRR_KERNELS_MXFP4_MXFP4_FORMAT_H_

#include "kernels/common/weight_format.h"

namespace cpubrrr {

const WeightFormat& Mxfp4Format();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_MXFP4_MXFP4_FORMAT_H_
