// Builds a WeightFormat's type-erased entries from a format's typed kernel tables, repack
// function and row decoder (each kernels/<format>/<format>_format.cc uses these).
#ifndef CPUBRRR_KERNELS_COMMON_WEIGHT_FORMAT_ADAPTERS_H_
#define CPUBRRR_KERNELS_COMMON_WEIGHT_FORMAT_ADAPTERS_H_

#include <cstddef>
#include <cstdint>

#include "kernels/common/weight_format.h"

namespace cpubrrr {

// The products of `table` (gemv and gemm taking weight blocks W, row strides in blocks,
// and activation blocks X, strides in blocks).
template <typename W, typename X, typename Table>
ProductKernels ProductsOf(const Table& table) {
  return {
      table.name,
      &table,
      [](const void* t, const uint8_t* w, size_t row_bytes, size_t rows, const uint8_t* x,
         size_t n_blocks, float* y) {
        static_cast<const Table*>(t)->gemv(reinterpret_cast<const W*>(w), row_bytes / sizeof(W), rows,
                                           reinterpret_cast<const X*>(x), n_blocks, y);
      },
      [](const void* t, const uint8_t* w, size_t row_bytes, size_t rows, const uint8_t* x,
         size_t x_row_bytes, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
        static_cast<const Table*>(t)->gemm(reinterpret_cast<const W*>(w), row_bytes / sizeof(W), rows,
                                           reinterpret_cast<const X*>(x), x_row_bytes / sizeof(X),
                                           n_tokens, n_blocks, y, y_stride);
      },
  };
}

// The repacked layout `Shape` of blocks W, written by kRepack(const W* w, size_t row_stride,
// size_t rows, size_t n_blocks, uint8_t* out), with the kernels of `variant` (a
// RepackedVariant<Shape, X>, kernels/common/repacked_variant.h); a variant without a gemv
// makes a copy that serves the gemm only.
template <typename W, typename X, typename Shape, auto kRepack, typename Variant>
RepackedLayout RepackedLayoutOf(const Variant& variant, int copy_priority) {
  RepackedLayout layout{
      Shape::kGroupRows,
      [](size_t rows, size_t n_blocks) -> uint64_t { return Shape{rows, n_blocks}.Bytes(); },
      [](const uint8_t* w, size_t row_bytes, size_t rows, size_t n_blocks, uint8_t* out) {
        kRepack(reinterpret_cast<const W*>(w), row_bytes / sizeof(W), rows, n_blocks, out);
      },
      variant.name,
      variant.required,
      &variant,
      [](const void* t, const uint8_t* packed, size_t rows, size_t n_blocks, size_t first_group,
         size_t n_groups, const uint8_t* x, float* y) {
        static_cast<const Variant*>(t)->gemv(packed, Shape{rows, n_blocks}, first_group, n_groups,
                                             reinterpret_cast<const X*>(x), y);
      },
      [](const void* t, const uint8_t* packed, size_t rows, size_t n_blocks, size_t first_group,
         size_t n_groups, const uint8_t* x, size_t x_row_bytes, size_t n_tokens, float* y,
         size_t y_stride) {
        static_cast<const Variant*>(t)->gemm(packed, Shape{rows, n_blocks}, first_group, n_groups,
                                             reinterpret_cast<const X*>(x), x_row_bytes / sizeof(X),
                                             n_tokens, y, y_stride);
      },
      variant.gemv == nullptr,
      copy_priority,
  };
  if (layout.serves_gemm_only) layout.gemv = nullptr;
  return layout;
}

// The row decoder kDequantize(const W* blocks, float* out, int64_t n) on bytes.
template <typename W, auto kDequantize>
void DequantizeRowOf(const uint8_t* src, float* out, int64_t n) {
  kDequantize(reinterpret_cast<const W*>(src), out, n);
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_WEIGHT_FORMAT_ADAPTERS_H_
