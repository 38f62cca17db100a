// Reads trained float32 tensors by name and quantizes them row by row into planned types.
#include "runtime/synth/trained_weights.h"

#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "quant/bf16.h"
#include "quant/fp16.h"
#include "quant/mxfp4.h"
#include "quant/q4_k.h"
#include "quant/q5_k.h"
#include "quant/q6_k.h"
#include "quant/q8_0.h"

namespace cpubrrr::synth {

absl::Status QuantizeValues(GgmlType type, const float* src, uint64_t elems, uint8_t* dst) {
  const int64_t n = static_cast<int64_t>(elems);
  switch (type) {
    case GgmlType::kF32:
      std::memcpy(dst, src, elems * sizeof(float));
      return absl::OkStatus();
    case GgmlType::kF16:
    case GgmlType::kBF16:
      for (uint64_t i = 0; i < elems; ++i) {
        const uint16_t h = type == GgmlType::kF16 ? Fp32ToFp16(src[i]) : Fp32ToBf16(src[i]);
        std::memcpy(dst + 2 * i, &h, 2);
      }
      return absl::OkStatus();
    case GgmlType::kQ8_0:
      QuantizeRowQ8_0(src, reinterpret_cast<BlockQ8_0*>(dst), n);
      return absl::OkStatus();
    case GgmlType::kMXFP4:
      QuantizeRowMxfp4(src, reinterpret_cast<BlockMxfp4*>(dst), n);
      return absl::OkStatus();
    case GgmlType::kQ4_K:
      QuantizeRowQ4K(src, reinterpret_cast<BlockQ4K*>(dst), n);
      return absl::OkStatus();
    case GgmlType::kQ5_K:
      QuantizeRowQ5K(src, reinterpret_cast<BlockQ5K*>(dst), n);
      return absl::OkStatus();
    case GgmlType::kQ6_K:
      QuantizeRowQ6K(src, reinterpret_cast<BlockQ6K*>(dst), n);
      return absl::OkStatus();
    default:
      return absl::UnimplementedError(absl::StrCat("cannot write type ", TypeName(type)));
  }
}

absl::StatusOr<TrainedWeights> TrainedWeights::Open(const std::string& path) {
  absl::StatusOr<GgufFile> file = OpenGguf(path);
  if (!file.ok()) return file.status();
  return TrainedWeights(*std::move(file));
}

absl::Status TrainedWeights::CheckMatches(const ModelPlan& plan) const {
  std::set<std::string> planned;
  for (const PlannedTensor& t : plan.tensors) {
    planned.insert(t.name);
    const GgufTensor* w = file_.FindTensor(t.name);
    if (w == nullptr) return absl::NotFoundError("the weights lack tensor " + t.name);
    if (w->type != GgmlType::kF32) {
      return absl::InvalidArgumentError(absl::StrCat(t.name, " is ", TypeName(w->type),
                                                     " in the weights, not f32"));
    }
    bool same = w->n_dims == t.dims.size();
    for (size_t i = 0; same && i < t.dims.size(); ++i) {
      same = static_cast<uint64_t>(w->dims[i]) == t.dims[i];
    }
    if (!same) {
      std::string want, got;
      for (uint64_t d : t.dims) absl::StrAppend(&want, " ", d);
      for (uint32_t i = 0; i < w->n_dims; ++i) absl::StrAppend(&got, " ", w->dims[i]);
      return absl::InvalidArgumentError(absl::StrCat(t.name, " has dimensions", got,
                                                     " in the weights; the shape plans", want));
    }
  }
  for (const GgufTensor& w : file_.tensors()) {
    if (!planned.count(std::string(w.name))) {
      return absl::InvalidArgumentError(
          absl::StrCat("the weights hold ", std::string(w.name), ", which the shape does not plan"));
    }
  }
  return absl::OkStatus();
}

absl::Status TrainedWeights::Fill(const PlannedTensor& t, uint8_t* dst, size_t bytes) const {
  const GgufTensor* w = file_.FindTensor(t.name);
  if (w == nullptr) return absl::NotFoundError("the weights lack tensor " + t.name);
  const TypeGeometry g = GeometryOf(t.type);
  const uint64_t elems = w->Elements();
  if (elems / g.block_elems * g.block_bytes != bytes) {
    return absl::InternalError(absl::StrCat("size mismatch writing ", t.name));
  }
  // The mapping gives no alignment promise for floats beyond GGUF's 32 bytes; copy rows.
  const uint64_t row = static_cast<uint64_t>(w->dims[0]);
  const size_t row_bytes = row / g.block_elems * g.block_bytes;
  std::vector<float> values(row);
  for (uint64_t r = 0; r < elems / row; ++r) {
    std::memcpy(values.data(), w->data + r * row * sizeof(float), row * sizeof(float));
    absl::Status s = QuantizeValues(t.type, values.data(), row, dst + r * row_bytes);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

std::string TrainedWeights::Name() const {
  absl::StatusOr<std::string_view> name = file_.GetString("general.name");
  return name.ok() ? std::string(*name) : std::string();
}

}  // namespace cpubrrr::synth
