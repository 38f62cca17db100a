// The repacked Q8_0 weight layout (sixteen rows to a group, one row per int32 lane, scales
// stored apart from the quants), the portable repack into it, and the AVX-512 gemm that
// reads it (the models read one token's Q8_0 from the file's rows).
#ifndef CPUBRRR_KERNELS_Q8_0_Q8_0_REPACKED_H_
#define CPUBRRR_KERNELS_Q8_0_Q8_0_REPACKED_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/common/repacked_layout.h"
#include "kernels/common/repacked_variant.h"
#include "quant/q8_0.h"

namespace cpubrrr {

// The repacked Q8_0 layout (kernels/common/repacked_layout.h) in groups of 16 rows, a unit
// being one block: per block the 16 rows' fp16 scales d (row 0 first, 32 bytes), and 8
// vectors of 64 bytes, vector k holding in int32 lane i the quants 4k .. 4k + 3 of row i,
// each plus 128 (the sign bit flipped): one vpdpbusd operand advances 16 rows, as the lane
// tile's decoded panels do (kernels/tiles/lane_tile_avx512-inl.h), with nothing to decode.
// A padding row or block has quants 0 (bytes 128) and scale 0.
inline constexpr size_t kQ8_0RepackedRows = 16;
using Q8_0RepackedShape = RepackedShape<32, 512, 1, kQ8_0RepackedRows>;

// Writes the repacked layout of rows x n_blocks blocks (row r at w + r * row_stride) to
// `out`, which holds Q8_0RepackedShape{rows, n_blocks}.Bytes() bytes.
void RepackQ8_0(const BlockQ8_0* w, size_t row_stride, size_t rows, size_t n_blocks, uint8_t* out);

// Returns quant j (0..31) of block b of row r, and that block's fp16 scale, read back
// from a repacked matrix of `shape` (for tests).
int8_t RepackedQ8_0Quant(const uint8_t* packed, const Q8_0RepackedShape& shape, size_t r,
                         size_t b, int j);
uint16_t RepackedQ8_0Scale(const uint8_t* packed, const Q8_0RepackedShape& shape, size_t r,
                           size_t b);

// AVX-512 VNNI gemm on the repacked layout (x86-64 only): for the groups [group_begin,
// group_begin + n_groups) of a matrix of `shape` at `packed` (64-byte aligned), x_stride
// blocks between tokens, y_stride floats between result rows:
// y[t * y_stride + r - kQ8_0RepackedRows * group_begin] = dot(row r, token t),
// on the lane tile as Q8_0GemmAvx512, whose bits (the oracle's) it gives.
void Q8_0RepackedGemmAvx512(const uint8_t* packed, const Q8_0RepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                            size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// A variant on the repacked layout (kernels/common/repacked_variant.h).
using Q8_0RepackedKernels = RepackedVariant<Q8_0RepackedShape, BlockQ8_0>;

// The repacked variants in priority order (:q8_0_repacked; none off x86-64).
std::span<const Q8_0RepackedKernels> AllQ8_0RepackedVariants();
// The first of them this CPU runs, or null (the models then keep Q8_0 in the file's layout).
const Q8_0RepackedKernels* BestQ8_0RepackedKernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_0_Q8_0_REPACKED_H_
