// The K-quant gemv over 8-row tiles, each prefetching a tile at least 9 KiB ahead.
#ifndef CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_
#define CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_

#include <cstddef>


namespace cpubrrr {

// Returns how many 8-row tiles of `tile_bytes` ahead a tile prefetches: at least 9 KiB.
// On Zen 5 (cold gemv against the read yardstick) short tiles (8 x 3 blocks: 3.4 KiB Q4_K,
// 5 KiB Q6_K) read memory clearly slower one tile ahead than two or three, and farther
// gained nothing; 9 KiB tiles (8 x 8 Q4_K blocks) read best one ahead and lost two ahead
// (docs/RESEARCH_LOG.md).
constexpr size_t KQuantTilesAhead(size_t tile_bytes) {
  constexpr size_t kMinBytes = size_t{9} << 10;
  return tile_bytes >= kMinBytes ? 1 : (kMinBytes + tile_bytes - 1) / tile_bytes;
}

// Runs y[r] = dot(row r, x) over tiles of 8 rows: tiles[k - 1] computes k rows as
// tiles[k - 1](rows, row_stride, args..., y, next) and prefetches the tile at `next` (null:
// none), KQuantTilesAhead tiles on. Only full tiles are prefetched, since a shorter one
// could end before 8 rows.
template <typename Block, typename Tile, typename... Args>
void GemvByTiles(const Tile (&tiles)[8], const Block* w, size_t row_stride, size_t rows,
                 float* y, Args... args) {
  const size_t ahead = KQuantTilesAhead(8 * row_stride * sizeof(Block));
  for (size_t r = 0; r < rows; r += 8) {
    const size_t tile = rows - r < 8 ? rows - r : 8;
    const Block* next = rows - r >= 8 * (ahead + 1) ? w + (r + 8 * ahead) * row_stride : nullptr;
    tiles[tile - 1](w + r * row_stride, row_stride, args..., y + r, next);
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_
