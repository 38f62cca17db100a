// The repacked MXFP4 layout (rows interleaved four at a time, exponents stored apart from
// the nibbles), the portable repack into it, and the AVX-512 and AVX2 kernels that read it.
#ifndef CPUBRRR_KERNELS_MXFP4_MXFP4_REPACKED_H_
#define CPUBRRR_KERNELS_MXFP4_MXFP4_REPACKED_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/common/repacked_layout.h"
#include "kernels/common/repacked_variant.h"
#include "quant/mxfp4.h"
#include "quant/q8_0.h"

namespace cpubrrr {

// The repacked MXFP4 layout (kernels/common/repacked_layout.h): per pair of blocks 8
// exponent bytes, e of (row 0, block 2p), (row 0, block 2p + 1), (row 1, 2p), ... (row 3,
// 2p + 1); and two 64-byte vectors of nibbles, the first for rows 0 and 1, the second for
// rows 2 and 3: byte i holds the lower row's E2M1 code in its low nibble and the upper
// row's in its high nibble, for value (i % 16) + 16 * (i / 32) of block 2p + (i / 16) % 2
// (the 128-bit lanes: values 0-15 of both blocks, then 16-31; pair_tile's kHalves order).
using Mxfp4RepackedShape = RepackedShape<8, 128, 2>;

// Writes the repacked layout of rows x n_blocks blocks (row r at w + r * row_stride) to
// `out`, which holds Mxfp4RepackedShape{rows, n_blocks}.Bytes() bytes.
void RepackMxfp4(const BlockMxfp4* w, size_t row_stride, size_t rows, size_t n_blocks,
                 uint8_t* out);

// Returns the E2M1 code of value j (0..31) of block b of row r, and that block's
// exponent, read back from a repacked matrix of `shape` (for tests and scalar checks).
uint8_t RepackedMxfp4Code(const uint8_t* packed, const Mxfp4RepackedShape& shape, size_t r,
                          size_t b, int j);
uint8_t RepackedMxfp4Exponent(const uint8_t* packed, const Mxfp4RepackedShape& shape, size_t r,
                              size_t b);

// AVX-512 VNNI gemv on the repacked layout (:mxfp4_repacked_avx512, x86-64 only): for
// the groups [group_begin, group_begin + n_groups) of a matrix of `shape` at `packed`
// (64-byte aligned), writes y[r - kRepackedRows * group_begin] = dot(row r, x) for each
// row r of those groups below shape.rows (groups past the matrix are ignored). x holds shape.n_blocks Q8_0 blocks; no
// activation quant is -128. Bit for bit Mxfp4GemvAvx512's results (ggml's x86 order).
void Mxfp4RepackedGemvAvx512(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                             size_t group_begin, size_t n_groups, const BlockQ8_0* x, float* y);

// The gemm of those groups' rows (x_stride blocks between tokens, y_stride floats between
// result rows): y[t * y_stride + r - kRepackedRows * group_begin] = dot(row r, token t),
// with Mxfp4GemmAvx512's bits: the gemv's per token below Avx512LaneTileFrom()
// tokens, from there on the lane tile's (the oracle's), which
// Mxfp4RepackedLaneGemmAvx512 (:mxfp4_repacked_gemm_avx512) computes.
void Mxfp4RepackedGemmAvx512(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                             size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                             size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
void Mxfp4RepackedLaneGemmAvx512(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                                 size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                                 size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// AVX2 (with FMA and F16C) gemv and gemm of the same contract on the same layout
// (:mxfp4_repacked_avx2, x86-64 only), with Mxfp4GemmAvx2's bits: the gemv (ggml's AVX2
// order) token by token below kMxfp4Avx2LaneTileFrom tokens, from there on the AVX2 lane
// tile's (the oracle's), which Mxfp4RepackedLaneGemmAvx2 (:mxfp4_repacked_gemm_avx2)
// computes.
void Mxfp4RepackedGemvAvx2(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8_0* x, float* y);
void Mxfp4RepackedGemmAvx2(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                           size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
void Mxfp4RepackedLaneGemmAvx2(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                               size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                               size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// The same built for AVX-VNNI (:mxfp4_repacked_avx_vnni, :mxfp4_repacked_gemm_avx_vnni),
// with the same bits.
void Mxfp4RepackedGemvAvxVnni(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                              size_t group_begin, size_t n_groups, const BlockQ8_0* x, float* y);
void Mxfp4RepackedGemmAvxVnni(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                              size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                              size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
void Mxfp4RepackedLaneGemmAvxVnni(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                                  size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                                  size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// A variant on the repacked layout (kernels/common/repacked_variant.h).
using Mxfp4RepackedKernels = RepackedVariant<Mxfp4RepackedShape, BlockQ8_0>;

// The repacked variants in priority order (:mxfp4_repacked; none off x86-64), and the
// first this CPU runs, or null.
std::span<const Mxfp4RepackedKernels> AllMxfp4RepackedVariants();
const Mxfp4RepackedKernels* BestMxfp4RepackedKernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_MXFP4_MXFP4_REPACKED_H_
