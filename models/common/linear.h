// Matrix products of bound weights with batches of activations, over a range of rows.
#ifndef CPUBRRR_MODELS_COMMON_LINEAR_H_
#define CPUBRRR_MODELS_COMMON_LINEAR_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "models/common/activation_batch.h"
#include "models/common/weight_matrix.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

// One worker's buffers for MatMulRows: gathered activations and results of scattered
// token lists. They grow to the largest batch seen, then stop allocating.
struct MatMulScratch {
  std::vector<uint8_t> x;
  std::vector<float> y;
};

// For i < in_rows.size() and r in `rows`:
//   y[out_rows[i] * y_stride + r] = dot(row r of matrix `mat` of `w`, activation in_rows[i])
// with the activation in w's pair format (ActFormatFor), already quantized by the caller
// (f32 weights take the unquantized f32 activations). One activation runs the format's
// gemv, several its gemm, which gives every token the gemv's bits (kernel tests), so a
// result depends only on its row and activation: not on `rows` (the thread split) nor on
// how many tokens share the call.
// Precondition: in_rows and out_rows have the same length; x.cols() == w.cols.
void MatMulRows(const WeightMatrix& w, int64_t mat, Range rows, const ActivationBatch& x,
                absl::Span<const int32_t> in_rows, absl::Span<const int32_t> out_rows, float* y,
                size_t y_stride, MatMulScratch& scratch);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_LINEAR_H_
