// The table entry of one kernel variant on a repacked layout (kernels/common/repacked_layout.h),
// and the pick of the first a CPU runs.
#ifndef CPUBRRR_KERNELS_COMMON_REPACKED_VARIANT_H_
#define CPUBRRR_KERNELS_COMMON_REPACKED_VARIANT_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/common/cpu_features.h"

namespace cpubrrr {

// Kernels on a repacked matrix of `Shape` against activations of block type `Activation`:
// the gemv writes y[r - Shape::kGroupRows * group_begin] = dot(row r, x) for the rows of groups
// [group_begin, group_begin + n_groups) (groups past the matrix ignored); the gemm does so
// for n_tokens tokens x_stride blocks apart, results y_stride floats apart.
template <class Shape, class Activation>
struct RepackedVariant {
  using Gemv = void (*)(const uint8_t* packed, const Shape& shape, size_t group_begin, size_t n_groups,
                        const Activation* x, float* y);
  using Gemm = void (*)(const uint8_t* packed, const Shape& shape, size_t group_begin, size_t n_groups,
                        const Activation* x, size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
  const char* name;
  uint32_t required;  // CpuFeature bits
  Gemv gemv;  // null when the layout serves the gemm only (one token reads the file's rows)
  Gemm gemm;  // never null
  const char* same_bits_as;  // the GGUF-layout variant whose results it gives bit for bit
};

// Returns the first of `variants` (in priority order) that this CPU runs, or null.
template <class Variant>
const Variant* FirstRunnable(std::span<const Variant> variants) {
  for (const Variant& v : variants) {
    if (HasFeatures(DetectCpuFeatures(), v.required)) return &v;
  }
  return nullptr;
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_REPACKED_VARIANT_H_
