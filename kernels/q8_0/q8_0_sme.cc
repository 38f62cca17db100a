// aarch64 SME Q8_0 x Q8_0 gemm: SMOPA over N x N tiles of rows x tokens (N = SVL / 32),
// scaled per block (kernels/tiles/sme_int8_tile.h). The table's quantizer and gemv are
// the NEON dotprod ones (q8_0_neon.cc).
#include <algorithm>
#include <vector>

#include "kernels/tiles/sme_int8_tile.h"
#include "kernels/q8_0/q8_0_kernels.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// Packs `count` (<= n) block-rows src[i * stride + b], b < n_blocks, into n_blocks packed
// blocks of an n-wide tile; lanes count..n-1 get zero quants and zero scales.
void Pack(const BlockQ8_0* src, size_t stride, size_t count, size_t n, size_t n_blocks,
          int8_t* q, float* s) {
  const size_t qb = SmePackedBlockBytes(n);
  std::fill(q, q + n_blocks * qb, int8_t{0});
  std::fill(s, s + n_blocks * n, 0.0f);
  for (size_t i = 0; i < count; ++i) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ8_0& blk = src[i * stride + b];
      SmePackBlockRow(blk.qs, i, n, q + b * qb);
      s[b * n + i] = Fp16ToFp32(blk.d);
    }
  }
}

}  // namespace

// Activations are packed once for all token tiles, each tile of weight rows once, then
// every (row tile, token tile) pair runs SmeInt8BlockTile over all blocks.
void Q8_0GemmSme(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                 size_t y_stride) {
  if (rows == 0 || n_tokens == 0) return;
  const size_t n = SmeTileSide();
  const size_t qb = SmePackedBlockBytes(n);
  const size_t token_tiles = (n_tokens + n - 1) / n;
  std::vector<int8_t> xq(token_tiles * n_blocks * qb);
  std::vector<float> xs(token_tiles * n_blocks * n);
  for (size_t tt = 0; tt < token_tiles; ++tt) {
    Pack(x + tt * n * x_stride, x_stride, std::min(n, n_tokens - tt * n), n, n_blocks,
         xq.data() + tt * n_blocks * qb, xs.data() + tt * n_blocks * n);
  }
  std::vector<int8_t> wq(n_blocks * qb);
  std::vector<float> ws(n_blocks * n), out(n * n);
  for (size_t r0 = 0; r0 < rows; r0 += n) {
    const size_t nr = std::min(n, rows - r0);
    Pack(w + r0 * row_stride, row_stride, nr, n, n_blocks, wq.data(), ws.data());
    for (size_t tt = 0; tt < token_tiles; ++tt) {
      SmeInt8BlockTile(wq.data(), ws.data(), xq.data() + tt * n_blocks * qb,
                       xs.data() + tt * n_blocks * n, n_blocks, out.data());
      const size_t nt = std::min(n, n_tokens - tt * n);
      for (size_t j = 0; j < nt; ++j) {
        float* yt = y + (tt * n + j) * y_stride + r0;
        for (size_t i = 0; i < nr; ++i) yt[i] = out[i * n + j];
      }
    }
  }
}

void Q8_0GemvSme(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                 size_t n_blocks, float* y) {
  Q8_0GemmSme(w, row_stride, rows, x, n_blocks, /*n_tokens=*/1, n_blocks, y, rows);
}

}  // namespace cpubrrr
