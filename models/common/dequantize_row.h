// Decodes one row of a bound weight matrix to f32 with quant/'s scalar decoders.
#ifndef CPUBRRR_MODELS_COMMON_DEQUANTIZE_ROW_H_
#define CPUBRRR_MODELS_COMMON_DEQUANTIZE_ROW_H_

#include <cstdint>

#include "models/common/weight_matrix.h"

namespace cpubrrr {

// Writes the w.cols values of row `row` of matrix `mat` to `out`.
// Precondition: w.type is supported (IsSupportedWeightType).
void DequantizeWeightRow(const WeightMatrix& w, int64_t mat, int64_t row, float* out);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_DEQUANTIZE_ROW_H_
