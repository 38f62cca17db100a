// Matrix products of bound weights with batches of activations, over a range of rows.
#ifndef CPUBRRR_MODELS_COMMON_LINEAR_H_
#define CPUBRRR_MODELS_COMMON_LINEAR_H_

#include <cstddef>
#include <cstdint>

#include "absl/types/span.h"
#include "models/common/activation_batch.h"
#include "models/common/weight_matrix.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

// For i < in_rows.size() and r in `rows`:
//   y[out_rows[i] * y_stride + r] = dot(row r of matrix `mat` of `w`, activation in_rows[i])
// with the activation in w's pair format (ActFormatFor), already quantized by the caller.
// Each weight row is read once for all activations. A result depends only on its row and
// activation, never on `rows` (so not on the thread split). `scratch` holds w.cols floats.
// Precondition: in_rows and out_rows have the same length; x.cols() == w.cols.
void MatMulRows(const WeightMatrix& w, int64_t mat, Range rows, const ActivationBatch& x,
                absl::Span<const int32_t> in_rows, absl::Span<const int32_t> out_rows, float* y,
                size_t y_stride, float* scratch);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_LINEAR_H_
