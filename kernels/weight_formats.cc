// The registered weight formats: one line per format.
#include "kernels/weight_formats.h"

#include <array>

#include "kernels/bf16/bf16_format.h"
#include "kernels/f16/f16_format.h"
#include "kernels/f32/f32_format.h"
#include "kernels/mxfp4/mxfp4_format.h"
#include "kernels/q4_k/q4_k_format.h"
#include "kernels/q5_k/q5_k_format.h"
#include "kernels/q6_k/q6_k_format.h"
#include "kernels/q8_0/q8_0_format.h"

namespace cpubrrr {

std::span<const WeightFormat* const> AllWeightFormats() {
  static const std::array formats = {
      &F32Format(), &F16Format(), &Bf16Format(), &Q8_0Format(), &Mxfp4Format(), &Q4KFormat(), &Q5KFormat(), &Q6KFormat(),
  };
  return formats;
}

const WeightFormat* FindWeightFormat(GgmlType type) {
  // Indexed by type id, built once: the models look formats up on every product.
  constexpr size_t kTypes = 64;
  static const std::array<const WeightFormat*, kTypes> by_type = [] {
    std::array<const WeightFormat*, kTypes> t{};
    for (const WeightFormat* f : AllWeightFormats()) t[static_cast<size_t>(f->type)] = f;
    return t;
  }();
  const auto i = static_cast<size_t>(type);
  return i < kTypes ? by_type[i] : nullptr;
}

}  // namespace cpubrrr
