// Per-row activation quantization into Q8_0 / Q8_K with the best kernels of this CPU.
#include "models/common/activation_batch.h"

#include "kernels/q8_0/q8_0.h"
#include "kernels/q8_k/q8_k.h"
#include "kernels/weight_formats.h"

namespace cpubrrr {

ActFormat ActFormatFor(GgmlType weight_type) {
  const WeightFormat* f = FindWeightFormat(weight_type);
  return f ? f->act : ActFormat::kF32;
}

ActivationBatch::ActivationBatch(int rows, int64_t cols, bool need_q8_0, bool need_q8k)
    : rows_(rows), cols_(cols), f32_(static_cast<size_t>(rows) * cols) {
  if (need_q8_0) q8_0_.resize(static_cast<size_t>(rows) * (cols / 32));
  if (need_q8k) q8k_.resize(static_cast<size_t>(rows) * (cols / 256));
}

const uint8_t* ActivationBatch::Data(int row, ActFormat format) const {
  switch (format) {
    case ActFormat::kQ8_0: return reinterpret_cast<const uint8_t*>(q8_0(row));
    case ActFormat::kQ8K: return reinterpret_cast<const uint8_t*>(q8k(row));
    default: return reinterpret_cast<const uint8_t*>(f32(row));
  }
}

size_t ActivationBatch::RowBytes(ActFormat format) const {
  switch (format) {
    case ActFormat::kQ8_0: return cols_ / 32 * sizeof(BlockQ8_0);
    case ActFormat::kQ8K: return cols_ / 256 * sizeof(BlockQ8K);
    default: return cols_ * sizeof(float);
  }
}

void ActivationBatch::Quantize(int row, Range cols, ActFormat format) {
  const float* x = f32(row) + cols.begin;
  const size_t at = static_cast<size_t>(row) * cols_ + cols.begin;
  if (format == ActFormat::kQ8_0) {
    static const Q8_0QuantizeFn quantize = BestQ8_0Kernels().quantize;
    quantize(x, q8_0_.data() + at / 32, cols.size() / 32);
  } else if (format == ActFormat::kQ8K) {
    static const Q8KQuantizer& quantizer = BestQ8KQuantizer();
    quantizer.quantize(x, q8k_.data() + at / 256, static_cast<int64_t>(cols.size()));
  }
}

}  // namespace cpubrrr
