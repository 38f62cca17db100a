// SME outer-product core shared by the Q8_0 and MXFP4 gemm variants: one N x N tile of
// int8 block dot products with a float scale per 32-element block. aarch64 only.
//
// The int32 block dots come from the widening FMOPA (fp16 pairs -> fp32 tile), not the
// 4-way SMOPA: qemu 7.2 (our only SME machine) mis-emulates SMOPA za.s (it computes only
// the same-parity (row, column) pairs of each 64-bit lane; see docs/RESEARCH_LOG.md), so
// a SMOPA kernel could not be tested here. int8 values are exact in fp16, each product
// (<= 2^14) and each partial block sum (<= 32 * 2^14 = 2^19) is exact in fp32, so the
// FMOPA result is float(isum) exactly, whatever the hardware's rounding of the pair sums.
#ifndef CPUBRRR_KERNELS_TILES_SME_INT8_TILE_H_
#define CPUBRRR_KERNELS_TILES_SME_INT8_TILE_H_

#include <cstddef>
#include <cstdint>

namespace cpubrrr {

// Returns N = SVL / 32: the side of a 32-bit ZA tile (int32 lanes per streaming vector).
// Needs SME (rdsvl); call only when DetectCpuFeatures() has kCpuSme.
size_t SmeTileSide();

// Bytes of one packed block of N rows (or tokens): 16 chunks of N x 2 int8.
inline size_t SmePackedBlockBytes(size_t n) { return 32 * n; }

// Packs the 32 int8 quants q of block-row i (of a tile of n) into packed block p, the
// layout the 2-way FMOPA reads (after ld1sb + scvtf to fp16 in streaming mode):
// p[c * 2n + 2i + k] = q[2c + k] for chunk c < 16, k < 2.
inline void SmePackBlockRow(const int8_t* q, size_t i, size_t n, int8_t* p) {
  for (int c = 0; c < 16; ++c) {
    for (int k = 0; k < 2; ++k) p[c * 2 * n + 2 * i + k] = q[2 * c + k];
  }
}

// For i, j < n = SmeTileSide() computes, with the oracles' float steps in block order,
//   out[i * n + j] = sum_b (ws[b n + i] * xs[b n + j]) * float(isum_b(i, j)),
//   isum_b(i, j) = sum_k wq_b(i, k) * xq_b(j, k)  (int32, 32 terms),
// from n_blocks packed blocks wq, xq (SmePackBlockRow layout, SmePackedBlockBytes(n)
// apart) and per-block scales ws, xs (n floats per block). Per block: 16 FMOPA (int8
// widened to fp16) into ZA0.S, then each ZA0 row is scaled and added into ZA1.S, the
// float accumulator tile; the result is bit-identical to the scalar oracles.
// Enters and leaves streaming mode itself; ZA is not live outside the call.
void SmeInt8BlockTile(const int8_t* wq, const float* ws, const int8_t* xq, const float* xs,
                      size_t n_blocks, float* out);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_TILES_SME_INT8_TILE_H_
