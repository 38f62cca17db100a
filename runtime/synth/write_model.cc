// Turns a ModelPlan into GgufWriter calls whose producers make each tensor on demand.
#include "runtime/synth/write_model.h"

#include <type_traits>

#include "runtime/gguf/gguf_writer.h"
#include "runtime/synth/weight_fill.h"

namespace cpubrrr::synth {
namespace {

void SetMeta(GgufWriter& writer, const std::string& key, const MetaValue& value) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, uint32_t>) writer.SetU32(key, v);
        if constexpr (std::is_same_v<T, float>) writer.SetF32(key, v);
        if constexpr (std::is_same_v<T, bool>) writer.SetBool(key, v);
        if constexpr (std::is_same_v<T, std::string>) writer.SetString(key, v);
        if constexpr (std::is_same_v<T, std::vector<std::string>>) writer.SetStringArray(key, v);
        if constexpr (std::is_same_v<T, std::vector<int32_t>>) writer.SetArray(key, v);
      },
      value);
}

}  // namespace

absl::Status WriteModel(const ModelPlan& plan, uint64_t seed, int threads,
                        const TrainedWeights* trained, const std::string& path) {
  GgufWriter writer;
  for (const auto& [key, value] : plan.metadata) SetMeta(writer, key, value);
  for (const PlannedTensor& t : plan.tensors) {
    std::vector<int64_t> dims(t.dims.begin(), t.dims.end());
    uint64_t elems = 1;
    for (uint64_t n : t.dims) elems *= n;
    const TypeGeometry g = GeometryOf(t.type);
    const uint64_t bytes = elems / g.block_elems * g.block_bytes;
    absl::Status added = writer.AddTensor(
        t.name, t.type, std::move(dims), bytes,
        [&t, seed, threads, trained](uint8_t* dst, size_t n) {
          if (trained != nullptr) return trained->Fill(t, dst, n);
          FillWeights(t.type, t.init, seed, t.name, dst, n, threads);
          return absl::OkStatus();
        });
    if (!added.ok()) return added;
  }
  return writer.WriteFile(path);
}

}  // namespace cpubrrr::synth
