// The registry of weight formats: one descriptor (kernels/common/weight_format.h) per GGML
// type the models read.
#ifndef CPUBRRR_KERNELS_WEIGHT_FORMATS_H_
#define CPUBRRR_KERNELS_WEIGHT_FORMATS_H_

#include <span>

#include "kernels/common/weight_format.h"

namespace cpubrrr {

// Returns every registered format, floats first.
std::span<const WeightFormat* const> AllWeightFormats();

// Returns the descriptor of `type`, or null when no format of that type is registered.
const WeightFormat* FindWeightFormat(GgmlType type);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_WEIGHT_FORMATS_H_
