// A weight tensor bound from a GGUF file: rows of quantized or float blocks, and where the
// model made one, its repacked copy.
#ifndef CPUBRRR_MODELS_COMMON_WEIGHT_MATRIX_H_
#define CPUBRRR_MODELS_COMMON_WEIGHT_MATRIX_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "quant/ggml_type.h"

namespace cpubrrr {

// `n_mat` matrices (experts) of `rows` rows, each row `cols` elements in `row_bytes`
// bytes of `type` blocks, stored contiguously in the mapped file: ggml's [cols, rows,
// n_mat] with ne[0] = cols.
struct WeightMatrix {
  std::string_view name;
  GgmlType type = GgmlType::kF32;
  int64_t cols = 0;
  int64_t rows = 0;
  int64_t n_mat = 1;
  size_t row_bytes = 0;
  const uint8_t* data = nullptr;
  // Null, or (MXFP4, Q4_K and Q6_K experts and attention projections, Q8_0 attention
  // projections, a Q6_K or Q8_0 output head, of the types this CPU repacks: models/common/repacked_weights.h) the same matrices in the
  // repacked layout of their type (kernels/<type>/<type>_repacked.h), one after another,
  // repacked_bytes each.
  const uint8_t* repacked = nullptr;
  size_t repacked_bytes = 0;

  // Returns the first byte of row `row` of matrix `mat`.
  const uint8_t* Row(int64_t mat, int64_t row) const {
    return data + (static_cast<size_t>(mat) * rows + row) * row_bytes;
  }
  uint64_t bytes() const { return static_cast<uint64_t>(n_mat) * rows * row_bytes; }
};

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_WEIGHT_MATRIX_H_
