// The repacked Q4_K weight layout (rows interleaved four at a time, a pure rearrangement of
// the GGUF bytes), the portable repack into it, and the AVX-512 and AVX2 kernels that read it.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_REPACKED_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_REPACKED_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/common/repacked_layout.h"
#include "kernels/common/repacked_variant.h"
#include "quant/q4_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// The repacked Q4_K layout (kernels/common/repacked_layout.h, one superblock per unit, no
// scale lines, so unit b starts kQ4KRepackedUnitBytes * b into its group): per superblock
// the 16 header bytes (d, dmin, the 12 scale bytes) of rows 0, 1, 2, 3 (one 64-byte line),
// then the 128 quant bytes (qs) of row 0, 1, 2, 3, each as in the GGUF block. A group takes
// exactly the bytes of its four rows; padding rows are all zero.
inline constexpr size_t kQ4KRepackedUnitBytes = kRepackedRows * sizeof(BlockQ4K);
using Q4KRepackedShape = RepackedShape<0, kQ4KRepackedUnitBytes, 1>;

// Where row rr (0..3) of a group keeps its header and its quants, from its unit's start.
inline constexpr size_t Q4KRepackedHeaderOffset(size_t rr) { return offsetof(BlockQ4K, qs) * rr; }
inline constexpr size_t Q4KRepackedQuantsOffset(size_t rr) {
  return kRepackedRows * offsetof(BlockQ4K, qs) + sizeof(BlockQ4K::qs) * rr;
}

// Writes the repacked layout of rows x n_blocks superblocks (row r at w + r * row_stride)
// to `out`, which holds Q4KRepackedShape{rows, n_blocks}.Bytes() bytes.
void RepackQ4K(const BlockQ4K* w, size_t row_stride, size_t rows, size_t n_blocks, uint8_t* out);

// Returns superblock b of row r read back from a repacked matrix of `shape` (for tests).
BlockQ4K RepackedQ4KBlock(const uint8_t* packed, const Q4KRepackedShape& shape, size_t r, size_t b);

// AVX-512 VNNI gemv on the repacked layout (:q4_k_repacked_avx512, x86-64 only): for the
// groups [group_begin, group_begin + n_groups) of a matrix of `shape` at `packed` (64-byte
// aligned), writes y[r - kRepackedRows * group_begin] = dot(row r, x) for each row r of
// those groups below shape.rows (groups past the matrix are ignored). x holds
// shape.n_blocks Q8_K blocks. Bit for bit Q4KGemvAvx512's results (ggml's x86 order).
void Q4KRepackedGemvAvx512(const uint8_t* packed, const Q4KRepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y);

// The gemm of those groups' rows (x_stride blocks between tokens, y_stride floats between
// result rows): y[t * y_stride + r - kRepackedRows * group_begin] = dot(row r, token t),
// bit for bit Q4KGemmAvx512's results (the gemv's per token below Avx512LaneTileFrom()
// tokens, the oracle's from it on).
void Q4KRepackedGemmAvx512(const uint8_t* packed, const Q4KRepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8K* x,
                           size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// The K-quant lane tile that Q4KRepackedGemmAvx512 runs from Avx512LaneTileFrom() tokens
// on (:q4_k_repacked_avx512, q4_k_repacked_gemm_avx512.cc), the oracle's bits for any count.
void Q4KRepackedLaneGemmAvx512(const uint8_t* packed, const Q4KRepackedShape& shape,
                               size_t group_begin, size_t n_groups, const BlockQ8K* x,
                               size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// AVX2 (with F16C) gemv and gemm of the same contract on the same layout
// (:q4_k_repacked_avx2, x86-64 only): the oracle's bits, as Q4KGemvAvx2 and Q4KGemmAvx2
// give them; the gemm token by token below kQ4KAvx2LaneTileFrom tokens, on the lane tile
// (Q4KRepackedLaneGemmAvx2, :q4_k_gemm_avx2) from there on.
void Q4KRepackedGemvAvx2(const uint8_t* packed, const Q4KRepackedShape& shape,
                         size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y);
void Q4KRepackedGemmAvx2(const uint8_t* packed, const Q4KRepackedShape& shape,
                         size_t group_begin, size_t n_groups, const BlockQ8K* x,
                         size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
void Q4KRepackedLaneGemmAvx2(const uint8_t* packed, const Q4KRepackedShape& shape,
                             size_t group_begin, size_t n_groups, const BlockQ8K* x,
                             size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// The same gemv and gemm built for AVX-VNNI (:q4_k_repacked_avx_vnni, and the lane tile's
// Q4KRepackedLaneGemmAvxVnni), with the same bits.
void Q4KRepackedGemvAvxVnni(const uint8_t* packed, const Q4KRepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y);
void Q4KRepackedGemmAvxVnni(const uint8_t* packed, const Q4KRepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8K* x,
                            size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
void Q4KRepackedLaneGemmAvxVnni(const uint8_t* packed, const Q4KRepackedShape& shape,
                                size_t group_begin, size_t n_groups, const BlockQ8K* x,
                                size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// A variant on the repacked layout (kernels/common/repacked_variant.h).
using Q4KRepackedKernels = RepackedVariant<Q4KRepackedShape, BlockQ8K>;

// The repacked variants in priority order (:q4_k_repacked; none off x86-64), and the
// first this CPU runs, or null.
std::span<const Q4KRepackedKernels> AllQ4KRepackedVariants();
const Q4KRepackedKernels* BestQ4KRepackedKernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_REPACKED_H_
