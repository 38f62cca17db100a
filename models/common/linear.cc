// Slow path until the format kernels land: decode each weight row, f32 dot with the
// decoded quantized activations, eight partial sums in a fixed order.
#include "models/common/linear.h"

#include "models/common/dequantize_row.h"

namespace cpubrrr {
namespace {

float Dot(const float* a, const float* b, int64_t n) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; ++j) acc[j] += a[i + j] * b[i + j];
  }
  for (; i < n; ++i) acc[0] += a[i] * b[i];
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

}  // namespace

void MatMulRows(const WeightMatrix& w, int64_t mat, Range rows, const ActivationBatch& x,
                absl::Span<const int32_t> in_rows, absl::Span<const int32_t> out_rows, float* y,
                size_t y_stride, float* scratch) {
  const ActFormat format = ActFormatFor(w.type);
  for (size_t r = rows.begin; r < rows.end; ++r) {
    DequantizeWeightRow(w, mat, static_cast<int64_t>(r), scratch);
    for (size_t i = 0; i < in_rows.size(); ++i) {
      y[out_rows[i] * y_stride + r] = Dot(scratch, x.Values(in_rows[i], format), w.cols);
    }
  }
}

}  // namespace cpubrrr
