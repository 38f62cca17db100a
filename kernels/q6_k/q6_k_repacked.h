// The repacked Q6_K weight layout (rows interleaved four at a time, each element's six bits
// rearranged for a cheaper decode), the portable repack into it, and the AVX-512 gemv and
// gemm that read it.
#ifndef CPUBRRR_KERNELS_Q6_K_Q6_K_REPACKED_H_
#define CPUBRRR_KERNELS_Q6_K_Q6_K_REPACKED_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/common/repacked_layout.h"
#include "kernels/common/repacked_variant.h"
#include "quant/q6_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// The repacked Q6_K layout (kernels/common/repacked_layout.h, one superblock per unit): per
// superblock 4 fp16 scales d, of rows 0..3, in the chunk's scale line; then 832 bytes: the
// 16 int8 sub-block scales of row 0, of row 1, 2, 3 (one 64-byte line), and per row r three
// 64-byte vectors A, B, C holding the unsigned 6-bit quants q_0 .. q_255:
//   A[j] = q_j       | (q_192+j & 3) << 6
//   B[j] = q_64+j    | (q_192+j >> 2 & 3) << 6
//   C[j] = q_128+j   | (q_192+j >> 4) << 6
// so the low six bits of A, B, C are elements 0-63, 64-127, 128-191 in order and their top
// bits together element 192 + j. Padding rows are all zero (scales 0).
using Q6KRepackedShape = RepackedShape<8, 832, 1>;

// Writes the repacked layout of rows x n_blocks superblocks (row r at w + r * row_stride)
// to `out`, which holds Q6KRepackedShape{rows, n_blocks}.Bytes() bytes.
void RepackQ6K(const BlockQ6K* w, size_t row_stride, size_t rows, size_t n_blocks, uint8_t* out);

// Returns the quant (0..63) of element i (0..255) of superblock b of row r, the
// superblock's sub-block scale s (0..15) and its fp16 d, read back from a repacked matrix of `shape` (for tests).
int RepackedQ6KQuant(const uint8_t* packed, const Q6KRepackedShape& shape, size_t r, size_t b,
                     int i);
int8_t RepackedQ6KScale(const uint8_t* packed, const Q6KRepackedShape& shape, size_t r, size_t b,
                        int s);
uint16_t RepackedQ6KD(const uint8_t* packed, const Q6KRepackedShape& shape, size_t r, size_t b);

// AVX-512 VNNI gemv on the repacked layout (:q6_k_repacked_avx512, x86-64 only): for the
// groups [group_begin, group_begin + n_groups) of a matrix of `shape` at `packed` (64-byte
// aligned), writes y[r - kRepackedRows * group_begin] = dot(row r, x) for each row r of
// those groups below shape.rows (groups past the matrix are ignored). x holds
// shape.n_blocks Q8_K blocks. Bit for bit Q6KGemvAvx512's results (ggml's x86 order).
void Q6KRepackedGemvAvx512(const uint8_t* packed, const Q6KRepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y);

// The gemm of those groups' rows (x_stride blocks between tokens, y_stride floats between
// result rows): y[t * y_stride + r - kRepackedRows * group_begin] = dot(row r, token t),
// bit for bit Q6KGemmAvx512's results (the gemv's per token below Avx512LaneTileFrom()
// tokens, the oracle's from it on).
void Q6KRepackedGemmAvx512(const uint8_t* packed, const Q6KRepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8K* x,
                           size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// The K-quant lane tile that Q6KRepackedGemmAvx512 runs from Avx512LaneTileFrom() tokens
// on (q6_k_repacked_gemm_avx512.cc), the oracle's bits for any count.
void Q6KRepackedLaneGemmAvx512(const uint8_t* packed, const Q6KRepackedShape& shape,
                               size_t group_begin, size_t n_groups, const BlockQ8K* x,
                               size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// AVX2 (with F16C) gemv and gemm of the same contract on the same layout
// (:q6_k_repacked_avx2, x86-64 only): the oracle's bits, as Q6KGemvAvx2 and Q6KGemmAvx2
// give them; the gemm token by token below kQ6KRepackedAvx2LaneTileFrom tokens and on the
// lane tile (Q6KRepackedLaneGemmAvx2, q6_k_repacked_gemm_avx2.cc) from there on.
inline constexpr size_t kQ6KRepackedAvx2LaneTileFrom = 4;
void Q6KRepackedGemvAvx2(const uint8_t* packed, const Q6KRepackedShape& shape,
                         size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y);
void Q6KRepackedGemmAvx2(const uint8_t* packed, const Q6KRepackedShape& shape,
                         size_t group_begin, size_t n_groups, const BlockQ8K* x,
                         size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
// The same gemv and gemm built for AVX-VNNI (:q6_k_repacked_avx_vnni, and the lane tile's
// Q6KRepackedLaneGemmAvxVnni), with the same bits.
void Q6KRepackedGemvAvxVnni(const uint8_t* packed, const Q6KRepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y);
void Q6KRepackedGemmAvxVnni(const uint8_t* packed, const Q6KRepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8K* x,
                            size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
void Q6KRepackedLaneGemmAvxVnni(const uint8_t* packed, const Q6KRepackedShape& shape,
                                size_t group_begin, size_t n_groups, const BlockQ8K* x,
                                size_t x_stride, size_t n_tokens, float* y, size_t y_stride);
void Q6KRepackedLaneGemmAvx2(const uint8_t* packed, const Q6KRepackedShape& shape,
                             size_t group_begin, size_t n_groups, const BlockQ8K* x,
                             size_t x_stride, size_t n_tokens, float* y, size_t y_stride);

// A variant on the repacked layout (kernels/common/repacked_variant.h).
using Q6KRepackedKernels = RepackedVariant<Q6KRepackedShape, BlockQ8K>;

// The repacked variants in priority order (:q6_k_repacked; none off x86-64), and the
// first this CPU runs, or null.
std::span<const Q6KRepackedKernels> AllQ6KRepackedVariants();
const Q6KRepackedKernels* BestQ6KRepackedKernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q6_K_Q6_K_REPACKED_H_
