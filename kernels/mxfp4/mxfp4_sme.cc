// aarch64 SME MXFP4 x Q8_0 gemm: nibbles decoded through the doubled E2M1 table into
// int8 tiles, then the ZA outer-product tile of kernels/tiles/sme_int8_tile.h with the
// per-block scale 2^(e-128) * d_x. The table entry's gemv is the NEON dotprod one.
#include <algorithm>
#include <vector>

#include "kernels/tiles/sme_int8_tile.h"
#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// Packs `count` (<= n) token rows x[j * stride + b] into an n-wide tile (zero-padded).
void PackActivations(const BlockQ8_0* x, size_t stride, size_t count, size_t n,
                     size_t n_blocks, int8_t* q, float* s) {
  const size_t qb = SmePackedBlockBytes(n);
  std::fill(q, q + n_blocks * qb, int8_t{0});
  std::fill(s, s + n_blocks * n, 0.0f);
  for (size_t j = 0; j < count; ++j) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ8_0& blk = x[j * stride + b];
      SmePackBlockRow(blk.qs, j, n, q + b * qb);
      s[b * n + j] = Fp16ToFp32(blk.d);
    }
  }
}

// Decodes and packs `count` (<= n) weight rows into an n-wide tile (zero-padded): element
// k < 16 is the low nibble of qs[k], k + 16 its high nibble, each through the doubled table.
void PackWeights(const BlockMxfp4* w, size_t stride, size_t count, size_t n,
                 size_t n_blocks, int8_t* q, float* s) {
  constexpr int kHalf = kMxfp4BlockSize / 2;
  const size_t qb = SmePackedBlockBytes(n);
  std::fill(q, q + n_blocks * qb, int8_t{0});
  std::fill(s, s + n_blocks * n, 0.0f);
  for (size_t i = 0; i < count; ++i) {
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockMxfp4& blk = w[i * stride + b];
      int8_t v[kMxfp4BlockSize];
      for (int k = 0; k < kHalf; ++k) {
        v[k] = kMxfp4DoubledValues[blk.qs[k] & 0x0F];
        v[k + kHalf] = kMxfp4DoubledValues[blk.qs[k] >> 4];
      }
      SmePackBlockRow(v, i, n, q + b * qb);
      s[b * n + i] = kE8m0Half.v[blk.e];
    }
  }
}

}  // namespace

// As Q8_0GemmSme: activations packed once, each row tile decoded once, then every
// (row tile, token tile) pair runs SmeInt8BlockTile over all blocks.
void Mxfp4GemmSme(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                  size_t y_stride) {
  if (rows == 0 || n_tokens == 0) return;
  const size_t n = SmeTileSide();
  const size_t qb = SmePackedBlockBytes(n);
  const size_t token_tiles = (n_tokens + n - 1) / n;
  std::vector<int8_t> xq(token_tiles * n_blocks * qb);
  std::vector<float> xs(token_tiles * n_blocks * n);
  for (size_t tt = 0; tt < token_tiles; ++tt) {
    PackActivations(x + tt * n * x_stride, x_stride, std::min(n, n_tokens - tt * n), n,
                    n_blocks, xq.data() + tt * n_blocks * qb, xs.data() + tt * n_blocks * n);
  }
  std::vector<int8_t> wq(n_blocks * qb);
  std::vector<float> ws(n_blocks * n), out(n * n);
  for (size_t r0 = 0; r0 < rows; r0 += n) {
    const size_t nr = std::min(n, rows - r0);
    PackWeights(w + r0 * row_stride, row_stride, nr, n, n_blocks, wq.data(), ws.data());
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

void Mxfp4GemvSme(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                  size_t n_blocks, float* y) {
  Mxfp4GemmSme(w, row_stride, rows, x, n_blocks, /*n_tokens=*/1, n_blocks, y, rows);
}

}  // namespace cpubrrr
