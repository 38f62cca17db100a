// Per-row activation quantization into Q8_0 / Q8_K with quant/'s reference encoders.
#include "models/common/activation_batch.h"

namespace cpubrrr {

ActFormat ActFormatFor(GgmlType weight_type) {
  switch (weight_type) {
    case GgmlType::kQ8_0:
    case GgmlType::kMXFP4:
      return ActFormat::kQ8_0;
    case GgmlType::kQ4_K:
    case GgmlType::kQ6_K:
      return ActFormat::kQ8K;
    default:
      return ActFormat::kF32;
  }
}

ActivationBatch::ActivationBatch(int rows, int64_t cols, bool need_q8_0, bool need_q8k)
    : rows_(rows), cols_(cols), f32_(static_cast<size_t>(rows) * cols) {
  if (need_q8_0) {
    q8_0_.resize(static_cast<size_t>(rows) * (cols / 32));
    q8_0_values_.resize(f32_.size());
  }
  if (need_q8k) {
    q8k_.resize(static_cast<size_t>(rows) * (cols / 256));
    q8k_values_.resize(f32_.size());
  }
}

const float* ActivationBatch::Values(int row, ActFormat format) const {
  switch (format) {
    case ActFormat::kQ8_0: return q8_0_values_.data() + row * cols_;
    case ActFormat::kQ8K: return q8k_values_.data() + row * cols_;
    default: return f32(row);
  }
}

void ActivationBatch::Quantize(int row, Range cols, ActFormat format) {
  const float* x = f32(row) + cols.begin;
  const size_t at = static_cast<size_t>(row) * cols_ + cols.begin;
  if (format == ActFormat::kQ8_0) {
    BlockQ8_0* q = q8_0_.data() + at / 32;
    QuantizeRowQ8_0(x, q, cols.size());
    DequantizeRowQ8_0(q, q8_0_values_.data() + at, cols.size());
  } else if (format == ActFormat::kQ8K) {
    BlockQ8K* q = q8k_.data() + at / 256;
    QuantizeRowQ8K(x, q, cols.size());
    DequantizeRowQ8K(q, q8k_values_.data() + at, cols.size());
  }
}

}  // namespace cpubrrr
