// A weight tensor bound from a GGUF file: rows of quantized or float blocks, and where the
// model made one, its repacked copy.
#ifndef CPUBRRR_MODELS_COMMON_WEIGHT_MATRIX_H_
#define CPUBRRR_MODELS_COMMON_WEIGHT_MATRIX_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kernels/weight_formats.h"
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
  // Null, or (the matrices models/common/repacked_weights.h picks among the formats with a
  // repacked layout on this CPU) the same matrices in that layout (format().repacked), one
  // after another, repacked_bytes each.
  const uint8_t* repacked = nullptr;
  size_t repacked_bytes = 0;

  // Returns the first byte of row `row` of matrix `mat`.
  const uint8_t* Row(int64_t mat, int64_t row) const {
    return data + (static_cast<size_t>(mat) * rows + row) * row_bytes;
  }
  uint64_t bytes() const { return static_cast<uint64_t>(n_mat) * rows * row_bytes; }

  // Returns the descriptor of w's type. Precondition: the type is registered
  // (kernels/weight_formats.h; TensorBinder binds no other).
  const WeightFormat& format() const { return *FindWeightFormat(type); }
  // Returns the layout of the repacked copy, or null without one.
  const RepackedLayout* layout() const { return repacked ? &*format().repacked : nullptr; }
  // Returns the rows a product on this matrix should be cut in multiples of: the copy's
  // row groups, or 1 (a cut elsewhere gives the same bits from the file's rows, slower).
  size_t RowGranule() const { return repacked ? layout()->group_rows : 1; }
  // Writes the `cols` values of row `row` of matrix `mat` to `out` (quant/'s decoders).
  void DequantizeRow(int64_t mat, int64_t row, float* out) const {
    format().dequantize_row(Row(mat, row), out, cols);
  }
};

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_WEIGHT_MATRIX_H_
