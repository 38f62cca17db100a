// The K-quant gemv over 8-row tiles, each prefetching the next tile.
#ifndef CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_
#define CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_

#include <cstddef>

#include "quant/q8_k.h"

namespace cpubrrr {

// Runs y[r] = dot(row r, x) over tiles of 8 rows: tiles[k - 1] computes k rows and
// prefetches the tile at `next` (null: none), here the following one. Only full tiles are
// prefetched, since a shorter one could end before 8 rows. Measured on Zen 5 (cold Q4_K
// and Q6_K gemv), one tile ahead beat 4, 16 and 64 KiB ahead.
template <typename Block>
void GemvByTiles(void (*const (&tiles)[8])(const Block*, size_t, const BlockQ8K*, size_t, float*,
                                           const Block*),
                 const Block* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y) {
  for (size_t r = 0; r < rows; r += 8) {
    const size_t tile = rows - r < 8 ? rows - r : 8;
    const Block* next = rows - r >= 16 ? w + (r + 8) * row_stride : nullptr;
    tiles[tile - 1](w + r * row_stride, row_stride, x, n_blocks, y + r, next);
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_
