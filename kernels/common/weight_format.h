// The descriptor of one GGML weight type as the model layer uses it: block geometry, the
// activation format it pairs with, this CPU's best products, its row decoder and, where a
// repacked variant runs here, its repacked layout with that layout's kernels.
#ifndef CPUBRRR_KERNELS_COMMON_WEIGHT_FORMAT_H_
#define CPUBRRR_KERNELS_COMMON_WEIGHT_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "quant/ggml_type.h"

namespace cpubrrr {

// The activation format a weight type is multiplied with (llama.cpp's vec_dot_type, except
// that f16/bf16 weights see f32 activations here).
enum class ActFormat { kF32, kQ8_0, kQ8K };

// Elements per block of `format`: activation rows are quantized in whole blocks.
constexpr size_t ActBlockElems(ActFormat format) {
  return format == ActFormat::kQ8_0 ? 32 : format == ActFormat::kQ8K ? 256 : 1;
}

// One kernel variant's products on rows as the GGUF file stores them, type-erased: `table`
// is the format's own kernel table (Q4KKernels, ...) that the functions call through.
// Weights: `rows` rows of n_blocks blocks, row_bytes apart; activations: blocks of the
// pair format, x_row_bytes apart; results y_stride floats apart (the gemm).
struct ProductKernels {
  using Gemv = void (*)(const void* table, const uint8_t* w, size_t row_bytes, size_t rows,
                        const uint8_t* x, size_t n_blocks, float* y);
  using Gemm = void (*)(const void* table, const uint8_t* w, size_t row_bytes, size_t rows,
                        const uint8_t* x, size_t x_row_bytes, size_t n_tokens, size_t n_blocks,
                        float* y, size_t y_stride);
  const char* variant;  // "avx512_vnni", "avx2", "hwy", "ref", ...
  const void* table;
  Gemv gemv;
  Gemm gemm;
};

// A repacked layout of the type (kernels/common/repacked_layout.h) and the variant of its
// kernels this CPU runs. Rows are interleaved in groups of `group_rows`: a product on the
// copy must start on a group and end on one or at the matrix end (RowGranule).
struct RepackedLayout {
  // Gemv and gemm on groups [first_group, first_group + n_groups) of a copy of `rows` rows
  // of n_blocks blocks: y[r - group_rows * first_group] = dot(row r, x), as ProductKernels.
  using Gemv = void (*)(const void* table, const uint8_t* packed, size_t rows, size_t n_blocks,
                        size_t first_group, size_t n_groups, const uint8_t* x, float* y);
  using Gemm = void (*)(const void* table, const uint8_t* packed, size_t rows, size_t n_blocks,
                        size_t first_group, size_t n_groups, const uint8_t* x, size_t x_row_bytes,
                        size_t n_tokens, float* y, size_t y_stride);
  size_t group_rows;
  // Bytes of the copy of one matrix of `rows` rows of n_blocks blocks.
  uint64_t (*bytes)(size_t rows, size_t n_blocks);
  // Writes that copy of the rows at `w` (row_bytes apart) to `out`.
  void (*repack)(const uint8_t* w, size_t row_bytes, size_t rows, size_t n_blocks, uint8_t* out);
  const char* variant;
  uint32_t required;  // CpuFeature bits the variant needs
  const void* table;
  Gemv gemv;
  Gemm gemm;
  // The copy serves the gemm of several tokens only (gemv is null); the gemv of one token
  // reads the file's rows (the file's pages stay in use, and experts are not copied).
  bool serves_gemm_only;
  // Order of copies when memory is short: lower first (the formats whose file-layout gemv
  // falls furthest below the copy's read speed).
  int copy_priority;
};

struct WeightFormat {
  GgmlType type;
  uint32_t block_elems;
  uint32_t block_bytes;
  ActFormat act;
  ProductKernels product;  // the best variant this CPU runs
  // Decodes the n elements (a multiple of block_elems) of one row at `src` to floats.
  void (*dequantize_row)(const uint8_t* src, float* out, int64_t n);
  std::optional<RepackedLayout> repacked;  // empty when no repacked variant runs here
};

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_WEIGHT_FORMAT_H_
