// The K-quant gemv over 8-row tiles, each prefetching a tile at least 9 KiB ahead.
#ifndef CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_
#define CPUBRRR_KERNELS_KQUANT_GEMV_TILES_H_

#include <cstddef>


namespace cpubrrr {

// Returns how many 8-row tiles of `tile_bytes` ahead a tile prefetches: at least 9 KiB.
// Measured on Zen 5 (cold gemv, % of the read yardstick): in session 3 one tile ahead
// reached 93-98% for 9 KiB Q4_K tiles (8 x 8 blocks) but 74-77% for 3.4 KiB ones (8 x 3
// blocks), two tiles 93-95% (Q6_K 5 KiB tiles: 90-93% -> 100-107%). On the faster
// machine of session 11 (yardstick 43 GB/s) two 3.4 KiB tiles read 82-88% and three
// 89-92% (four or five 88-90%, six 87%), while the 9 KiB tiles read 90-91% one ahead and
// 82-85% two ahead.
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
