// Tensor lookup with alternative names, shape checks and weight type checks.
#include "models/common/tensor_binding.h"

#include "absl/status/status.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {
namespace {

std::string DimsString(const GgufTensor& t) {
  std::string s = "[";
  for (uint32_t d = 0; d < t.n_dims; ++d) s += Cat(d ? ", " : "", t.dims[d]);
  return s + "]";
}

// Returns true when `t` has exactly the dims `want` (trailing 1s may be omitted in t).
bool ShapeIs(const GgufTensor& t, std::initializer_list<int64_t> want) {
  if (t.n_dims > want.size()) return false;
  size_t d = 0;
  for (int64_t w : want) {
    if (t.dims[d] != w) return false;
    ++d;
  }
  return true;
}

}  // namespace

bool IsSupportedWeightType(GgmlType type) { return FindWeightFormat(type) != nullptr; }

std::string LayerTensorName(uint32_t layer, std::string_view suffix) {
  return Cat("blk.", layer, ".", suffix);
}

absl::StatusOr<const GgufTensor*> TensorBinder::Find(
    std::initializer_list<std::string_view> names) const {
  for (std::string_view name : names) {
    if (const GgufTensor* t = file_.FindTensor(name)) return t;
  }
  std::string list;
  for (std::string_view name : names) list += Cat(list.empty() ? "" : " or ", name);
  return absl::NotFoundError(Cat("model: missing tensor ", list));
}

absl::StatusOr<WeightMatrix> TensorBinder::Matrix(std::initializer_list<std::string_view> names,
                                                  int64_t cols, int64_t rows,
                                                  int64_t n_mat) const {
  absl::StatusOr<const GgufTensor*> found = Find(names);
  if (!found.ok()) return found.status();
  const GgufTensor& t = **found;
  const bool shape_ok = n_mat == 1 ? ShapeIs(t, {cols, rows}) : ShapeIs(t, {cols, rows, n_mat});
  if (!shape_ok) {
    return absl::InvalidArgumentError(Cat(
        "model: tensor ", t.name, " has shape ", DimsString(t), ", expected [", cols, ", ", rows,
        n_mat == 1 ? "" : Cat(", ", n_mat), "]"));
  }
  const WeightFormat* format = FindWeightFormat(t.type);
  if (format == nullptr) {
    std::string supported;
    for (const WeightFormat* f : AllWeightFormats()) supported += Cat(supported.empty() ? "" : ", ", TypeName(f->type));
    return absl::UnimplementedError(Cat("model: tensor ", t.name, " has type ", TypeName(t.type), " (id ",
                                        static_cast<uint32_t>(t.type), "); supported: ", supported));
  }
  WeightMatrix w;
  w.name = t.name;
  w.type = t.type;
  w.cols = cols;
  w.rows = rows;
  w.n_mat = n_mat;
  w.row_bytes = static_cast<size_t>(cols / format->block_elems) * format->block_bytes;
  w.data = t.data;
  return w;
}

absl::StatusOr<const float*> TensorBinder::F32(std::initializer_list<std::string_view> names,
                                               int64_t ne0, int64_t ne1) const {
  absl::StatusOr<const GgufTensor*> found = Find(names);
  if (!found.ok()) return found.status();
  const GgufTensor& t = **found;
  if (!ShapeIs(t, {ne0, ne1})) {
    return absl::InvalidArgumentError(Cat("model: tensor ", t.name, " has shape ",
                                                   DimsString(t), ", expected [", ne0,
                                                   ne1 == 1 ? "" : Cat(", ", ne1), "]"));
  }
  if (t.type != GgmlType::kF32) {
    return absl::UnimplementedError(Cat("model: tensor ", t.name, " has type ",
                                                 TypeName(t.type), ", expected f32"));
  }
  if (reinterpret_cast<uintptr_t>(t.data) % alignof(float) != 0) {
    return absl::InvalidArgumentError(Cat("model: tensor ", t.name, " is misaligned"));
  }
  return reinterpret_cast<const float*>(t.data);
}

uint64_t TensorBinder::TotalElements() const {
  uint64_t n = 0;
  for (const GgufTensor& t : file_.tensors()) n += t.Elements();
  return n;
}

}  // namespace cpubrrr
