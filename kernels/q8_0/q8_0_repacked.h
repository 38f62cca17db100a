// The repacked Q8_0 weight layout (rows interleaved four at a time, scales stored apart
// from the quants), the portable repack into it, and the AVX-512 gemv and gemm that read it.
#ifndef CPUBRRR_KERNELS_Q8_0_Q8_0_REPACKED_H_
#define CPUBRRR_KERNELS_Q8_0_Q8_0_REPACKED_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/common/repacked_layout.h"
#include "kernels/common/repacked_variant.h"
#include "quant/q8_0.h"

namespace cpubrrr {

// The repacked Q8_0 layout (kernels/common/repacked_layout.h): per pair of blocks 8 fp16
// scales, d of (row 0, block 2p), (row 0, block 2p + 1), (row 1, 2p), ... (row 3, 2p + 1);
// and per row r of the group 64 bytes: the 32 quants of block 2p, then those of block
// 2p + 1, each plus 128 (the sign bit flipped), ready as vpdpbusd's unsigned operand.
// A padding block has quants 0 (bytes 128) and scale 0.
using Q8_0RepackedShape = RepackedShape<16, 256, 2>;

// Writes the repacked layout of rows x n_blocks blocks (row r at w + r * row_stride) to
// `out`, which holds Q8_0RepackedShape{rows, n_blocks}.Bytes() bytes.
void RepackQ8_0(const BlockQ8_0* w, size_t row_stride, size_t rows, size_t n_blocks, uint8_t* out);

// Returns quant j (0..31) of block b of row r, and that block's fp16 scale, read back
// from a repacked matrix of `shape` (for tests).
int8_t RepackedQ8_0Quant(const uint8_t* packed, const Q8_0RepackedShape& shape, size_t r,
                         size_t b, int j);
uint16_t RepackedQ8_0Scale(const uint8_t* packed, const Q8_0RepackedShape& shape, size_t r,
                           size_t b);

// AVX-512 VNNI gemv on the repacked layout (:q8_0_repacked_avx512, x86-64 only): for
// the groups [group_begin, group_begin + n_groups) of a matrix of `shape` at `packed`
// (64-byte aligned), writes y[r - kRepackedRows * group_begin] = dot(row r, x) for each
// row r of those groups below shape.rows (groups past the matrix are ignored). x holds shape.n_blocks Q8_0 blocks. Bit for
// bit GemvQ8_0Avx512's results (ggml's x86 order).
void GemvQ8_0RepackedAvx512(const uint8_t* packed, const Q8_0RepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8_0* x, float* y);

// The gemm of those groups' rows (x_stride blocks between tokens, y_stride floats between
// result rows): y[t * y_stride + r - kRepackedRows * group_begin] = dot(row r, token t),
// on the lane tile as GemmQ8_0Avx512, whose bits (the oracle's) it gives.
void GemmQ8_0RepackedAvx512(const uint8_t* packed, const Q8_0RepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                            size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// A variant on the repacked layout (kernels/common/repacked_variant.h).
using Q8_0RepackedKernels = RepackedVariant<Q8_0RepackedShape, BlockQ8_0>;

// The repacked variants in priority order (:q8_0_repacked; none off x86-64). The models
// run Q8_0 from the file's layout, so only the benchmark reads them.
std::span<const Q8_0RepackedKernels> AllQ8_0RepackedVariants();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_0_Q8_0_REPACKED_H_
