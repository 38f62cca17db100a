// Binds GGUF tensors by name (accepting alternative names) with full shape and type checks.
#ifndef CPUBRRR_MODELS_COMMON_TENSOR_BINDING_H_
#define CPUBRRR_MODELS_COMMON_TENSOR_BINDING_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "models/common/weight_matrix.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {

// Returns true for the weight types the forward pass multiplies with: F32, F16, BF16,
// Q8_0, MXFP4, Q4_K and Q6_K.
bool IsSupportedWeightType(GgmlType type);

// Looks tensors up in one file. Every error names the tensor and what was expected.
class TensorBinder {
 public:
  explicit TensorBinder(const GgufFile& file) : file_(file) {}

  // Binds the first of `names` present as `n_mat` matrices of `rows` x `cols` (GGUF
  // dims [cols, rows] or [cols, rows, n_mat]) of a supported weight type. Fails with
  // NotFound when no name is present, InvalidArgument for another shape, Unimplemented
  // for another type.
  absl::StatusOr<WeightMatrix> Matrix(std::initializer_list<std::string_view> names,
                                      int64_t cols, int64_t rows, int64_t n_mat = 1) const;

  // Binds the first of `names` present as an F32 tensor of dims [ne0, ne1]; returns its
  // data, ne0 contiguous floats per row. Fails like Matrix, and for misaligned data.
  absl::StatusOr<const float*> F32(std::initializer_list<std::string_view> names, int64_t ne0,
                                   int64_t ne1 = 1) const;

  // Returns the sum of the element counts of every tensor in the file.
  uint64_t TotalElements() const;

 private:
  // Returns the first of `names` present, or NotFound listing them.
  absl::StatusOr<const GgufTensor*> Find(std::initializer_list<std::string_view> names) const;

  const GgufFile& file_;
};

// Returns "blk.<layer>.<suffix>".
std::string LayerTensorName(uint32_t layer, std::string_view suffix);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_TENSOR_BINDING_H_
