// The K-quant gemv over 8-row tiles, each prefetching a tile at least 64 KiB ahead.
#ifndef CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_
#define CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_

#include <cstddef>

#include "quant/q8_k.h"

namespace cpubrrr {

// Returns how many 8-row tiles of `tile_bytes` ahead a tile prefetches: one tile of a
// short row (e.g. 8 x 3 Q6_K blocks, 5 KiB) computes in less time than memory takes to
// answer, so the distance covers at least 64 KiB (measured: 16 KiB 14-18 GB/s cold Q4_K,
// 64 KiB 18-20, 256 KiB no better).
constexpr size_t KQuantTilesAhead(size_t tile_bytes) {
  constexpr size_t kMinBytes = size_t{64} << 10;
  return tile_bytes >= kMinBytes ? 1 : (kMinBytes + tile_bytes - 1) / tile_bytes;
}

// Runs y[r] = dot(row r, x) over tiles of 8 rows: tiles[k - 1] computes k rows and
// prefetches the tile at `next` (null: none). Only full tiles are prefetched, since a
// shorter one could end before 8 rows.
template <typename Block>
void GemvByTiles(void (*const (&tiles)[8])(const Block*, size_t, const BlockQ8K*, size_t, float*,
                                           const Block*),
                 const Block* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                 size_t n_blocks, float* y) {
  const size_t ahead = KQuantTilesAhead(8 * row_stride * sizeof(Block));
  for (size_t r = 0; r < rows; r += 8) {
    const size_t tile = rows - r < 8 ? rows - r : 8;
    const Block* next = rows - r >= 8 * (ahead + 1) ? w + (r + 8 * ahead) * row_stride : nullptr;
    tiles[tile - 1](w + r * row_stride, row_stride, x, n_blocks, y + r, next);
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_
