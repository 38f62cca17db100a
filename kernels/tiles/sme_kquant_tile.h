// SME outer-product tile and gemm driver for the Q4_K and Q6_K x Q8_K variants (aarch64).
//
// Why not the int8 tile (sme_int8_tile.h): K-quant weights folded with their sub-block
// scale (Q4_K sc * q <= 945, Q6_K scale * (q - 32) up to 4096 in magnitude) are not int8,
// and the oracles' float step per 256-weight block is x.d * (d * isum - dmin * msum), not
// (d_w * d_x) * isum. As there, the int32 sums come from the widening FMOPA (fp16 pairs ->
// fp32 ZA) on integers that are exact in fp16, with every product and partial sum an
// integer exact in fp32 (|.| <= 2^24, or a multiple of 64 below 2^30), so each ZA value
// is an exact integer whatever order or fusion the hardware uses. Per block, three such
// sums per (row, token): isum = S0 + S1 (one fp32 add: the one rounding of float(isum))
// and msum = S2 (exact, below 2^24).
#ifndef CPUBRRR_KERNELS_TILES_SME_KQUANT_TILE_H_
#define CPUBRRR_KERNELS_TILES_SME_KQUANT_TILE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/tiles/sme_int8_tile.h"
#include "quant/q8_k.h"

namespace cpubrrr {

// A chunk is n lanes (rows, or tokens) x 2 int16: SVL bytes. Chunk c of a packed block
// holds lane i's pair at [c * 2n + 2i], [c * 2n + 2i + 1].
inline size_t SmeChunkInt16s(size_t n) { return 2 * n; }

// Where the three sums of a block come from. A packed weight block is w_chunks[0] chunks
// for S0, then w_chunks[1] for S1, then w_chunks[2] for S2; sum s pairs its k-th weight
// chunk with activation chunk x_first[s] + k of a packed activation block of x_chunks.
struct SmeKQuantShape {
  uint64_t w_chunks[3];
  uint64_t x_first[3];
  uint64_t x_chunks;
};

// Activation chunks of a packed Q8_K block: 128 of quants (elements 2c, 2c + 1), then,
// when the weights have mins, 8 of bsums (bsums[2c'], bsums[2c' + 1]; |bsum| <= 2048,
// exact in fp16).
inline constexpr uint64_t kSmeQ8KQuantChunks = kQ8KBlockSize / 2;
inline constexpr uint64_t kSmeQ8KBsumChunks = 8;

// Packs x's quants (and bsums when shape.x_chunks holds them) into lane j of packed block p.
void SmePackQ8K(const BlockQ8K& x, size_t j, size_t n, const SmeKQuantShape& shape, int16_t* p);

// For i, j < n = SmeTileSide() computes, block by block in order from acc = 0,
//   acc[i][j] += xd[b n + j] * (wd[b n + i] * float(isum) - wdmin[b n + i] * float(msum))
// with isum = S0 + S1, msum = S2 of block b (see the top of this file), and writes
// out[i * n + j] = acc[i][j]: the oracles' float steps, bit for bit. wq and xq hold
// n_blocks packed blocks each (shape's chunk counts apart). A format without mins packs
// wdmin = 0 and no S2 chunks: the min term is then +0 and leaves d * isum unchanged.
// Enters and leaves streaming mode itself; ZA is not live outside the call.
void SmeKQuantBlockTile(const int16_t* wq, const float* wd, const float* wdmin, const int16_t* xq,
                        const float* xd, size_t n_blocks, const SmeKQuantShape& shape, float* out);

// The gemm over N x N tiles of rows x tokens (N = SmeTileSide()): activations are packed
// once for all token tiles, each tile of weight rows once, then every (row tile, token
// tile) pair runs SmeKQuantBlockTile over all blocks. pack(block, i, n, q, d, dmin) packs
// one weight block into lane i of packed block q and sets d[i], dmin[i]; padding lanes
// stay zero. Needs SME.
template <typename Block, typename PackWeightBlock>
void SmeKQuantGemm(const SmeKQuantShape& shape, PackWeightBlock pack, const Block* w,
                   size_t row_stride, size_t rows, const BlockQ8K* x, size_t x_stride,
                   size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  const size_t n = SmeTileSide();
  const size_t xb = shape.x_chunks * SmeChunkInt16s(n);
  const size_t wb = (shape.w_chunks[0] + shape.w_chunks[1] + shape.w_chunks[2]) * SmeChunkInt16s(n);
  const size_t token_tiles = (n_tokens + n - 1) / n;
  std::vector<int16_t> xq(token_tiles * n_blocks * xb);
  std::vector<float> xd(token_tiles * n_blocks * n);
  for (size_t t = 0; t < n_tokens; ++t) {
    const size_t tile_block = t / n * n_blocks;
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ8K& xblk = x[t * x_stride + b];
      SmePackQ8K(xblk, t % n, n, shape, xq.data() + (tile_block + b) * xb);
      xd[(tile_block + b) * n + t % n] = xblk.d;
    }
  }
  std::vector<int16_t> wq(n_blocks * wb);
  std::vector<float> wd(n_blocks * n), wdmin(n_blocks * n), out(n * n);
  for (size_t r0 = 0; r0 < rows; r0 += n) {
    const size_t nr = std::min(n, rows - r0);
    std::fill(wq.begin(), wq.end(), int16_t{0});
    std::fill(wd.begin(), wd.end(), 0.0f);
    std::fill(wdmin.begin(), wdmin.end(), 0.0f);
    for (size_t i = 0; i < nr; ++i) {
      for (size_t b = 0; b < n_blocks; ++b) {
        pack(w[(r0 + i) * row_stride + b], i, n, wq.data() + b * wb, wd.data() + b * n,
             wdmin.data() + b * n);
      }
    }
    for (size_t tt = 0; tt < token_tiles; ++tt) {
      SmeKQuantBlockTile(wq.data(), wd.data(), wdmin.data(), xq.data() + tt * n_blocks * xb,
                         xd.data() + tt * n_blocks * n, n_blocks, shape, out.data());
      const size_t nt = std::min(n, n_tokens - tt * n);
      for (size_t j = 0; j < nt; ++j) {
        float* yt = y + (tt * n + j) * y_stride + r0;
        for (size_t i = 0; i < nr; ++i) yt[i] = out[i * n + j];
      }
    }
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_TILES_SME_KQUANT_TILE_H_
