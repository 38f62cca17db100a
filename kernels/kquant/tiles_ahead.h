// How far ahead the K-quant gemv tiles prefetch: whole 8-row tiles, at least 64 KiB.
#ifndef CPUBRRR_KERNELS_KQUANT_TILES_AHEAD_H_
#define CPUBRRR_KERNELS_KQUANT_TILES_AHEAD_H_

#include <cstddef>

namespace cpubrrr {

// Returns how many 8-row tiles of `tile_bytes` ahead a tile prefetches: one tile of a
// short row (e.g. 8 x 3 Q6_K blocks, 5 KiB) computes in less time than memory takes to
// answer, so the distance covers at least 64 KiB (measured: 16 KiB 14-18 GB/s cold Q4_K,
// 64 KiB 18-20, 256 KiB no better).
constexpr size_t KQuantTilesAhead(size_t tile_bytes) {
  constexpr size_t kMinBytes = size_t{64} << 10;
  return tile_bytes >= kMinBytes ? 1 : (kMinBytes + tile_bytes - 1) / tile_bytes;
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_KQUANT_TILES_AHEAD_H_
