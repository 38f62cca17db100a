// Activations of a batch of tokens in f32 and quantized into the weights' pair formats.
#ifndef CPUBRRR_MODELS_COMMON_ACTIVATION_BATCH_H_
#define CPUBRRR_MODELS_COMMON_ACTIVATION_BATCH_H_

#include <cstdint>
#include <vector>

#include "kernels/common/weight_format.h"
#include "quant/ggml_type.h"
#include "quant/q8_0.h"
#include "quant/q8_k.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

// Returns the activation format weights of `weight_type` are multiplied with (the
// descriptor's, kernels/weight_formats.h; f32 for an unregistered type).
ActFormat ActFormatFor(GgmlType weight_type);

// `rows` activation vectors of `cols` floats. Row i's f32 values are written by the
// caller (mutable_f32), then Quantize fills the quantized copy a consumer needs with the
// fastest quantizer of this CPU (kernels/q8_0, kernels/q8_k: bit-exact with quant/'s).
class ActivationBatch {
 public:
  // Precondition: cols is a multiple of 32 (of 256 when `need_q8k`).
  ActivationBatch(int rows, int64_t cols, bool need_q8_0, bool need_q8k);

  int rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  float* mutable_f32(int row) { return f32_.data() + row * cols_; }
  const float* f32(int row) const { return f32_.data() + row * cols_; }
  const BlockQ8_0* q8_0(int row) const { return q8_0_.data() + row * (cols_ / 32); }
  const BlockQ8K* q8k(int row) const { return q8k_.data() + row * (cols_ / 256); }
  // Returns the first byte of row `row` in `format` and the bytes between rows.
  const uint8_t* Data(int row, ActFormat format) const;
  size_t RowBytes(ActFormat format) const;

  // Quantizes columns `cols` of row `row` into `format` (a no-op for kF32).
  // Precondition: cols is aligned to the format's block (32 or 256) at both ends.
  void Quantize(int row, Range cols, ActFormat format);

 private:
  int rows_;
  int64_t cols_;
  std::vector<float> f32_;
  std::vector<BlockQ8_0> q8_0_;
  std::vector<BlockQ8K> q8k_;
};

// Returns whether any of `weights` (anything with a GgmlType `type`) pairs with `format`.
template <typename... W>
bool AnyNeeds(ActFormat format, const W&... weights) {
  return ((ActFormatFor(weights.type) == format) || ...);
}

// Quantizes columns `cols` of row `row` of `batch` once into each format `weights` need.
template <typename... W>
void QuantizeFor(ActivationBatch& batch, int row, Range cols, const W&... weights) {
  for (ActFormat f : {ActFormat::kQ8_0, ActFormat::kQ8K}) {
    if (AnyNeeds(f, weights...)) batch.Quantize(row, cols, f);
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_ACTIVATION_BATCH_H_
