// AVX-512 VNNI Q4_K x Q8_K gemv on the GGUF layout, 8-row tiles of q4_k_gemv_tile_avx512-inl.h
// (ggml's float order), and the gemm: below Avx512LaneTileFrom() tokens the same tile on
// a few tokens at once, from it on the lane tile of q4_k_gemm_avx512.cc (the oracle's order).
#include "kernels/q4_k/q4_k_avx512.h"

#include <immintrin.h>

#include <algorithm>

#include "kernels/common/few_tokens.h"
#include "kernels/common/prefetch.h"
#include "kernels/kquant/gemv_tiles.h"
#include "kernels/q4_k/q4_k_gemv_tile_avx512-inl.h"
#include "kernels/q4_k/q4_k_kernels.h"
#include "kernels/tiles/token_tiles.h"

namespace cpubrrr {
namespace {

using q4_k_gemv::FewTokensTile;
using q4_k_gemv::GemvTile;
using q4_k_gemv::GemvX;
using q4_k_gemv::PackGemvX;

// Returns the 16 header bytes (d, dmin, the 12 scale bytes) of block b of rows 4g .. 4g + 3
// in the four 128-bit lanes; rows >= R are zero.
template <int R>
inline __m512i LoadHeaders(const BlockQ4K* w, size_t row_stride, size_t b, int g) {
  __m512i h = _mm512_setzero_si512();
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    if (4 * g + i < R) {
      const __m128i row = _mm_loadu_si128(
          reinterpret_cast<const __m128i*>(&w[(4 * g + i) * row_stride + b]));
      h = _mm512_mask_broadcast_i32x4(h, static_cast<__mmask16>(0xF << (4 * i)), row);
    }
  }
  return h;
}

// Prefetches the part of the next 8-row tile (at `next`) that matches block b of this
// one: block b of each of its rows, the order the tile will read it in, so the next tile
// streams in while this one computes. Not the tile front to back (8 blocks per step when
// contiguous): that way its last rows arrive last though its first step reads all eight,
// and a cold gemv that only loaded its weights stayed below the read yardstick that way
// and reached it this way (Zen 5, research log). Each line once (PrefetchLinesStartingIn):
// with contiguous rows the line a block starts in is asked for with the block before, or
// with the row before for a row's first block; strided rows leave that line to the hardware.
inline void PrefetchTilePart(const BlockQ4K* next, size_t row_stride, size_t b) {
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    PrefetchLinesStartingIn<sizeof(BlockQ4K)>(next + r * row_stride + b);
  }
}

// The GGUF layout's rows for GemvTile: R consecutive rows row_stride blocks apart; `next`,
// unless null, is the 8-row tile to prefetch.
template <int R>
struct GgufRows {
  const BlockQ4K* w;
  size_t row_stride;
  const BlockQ4K* next;

  __m512i Headers(size_t b, int g) const { return LoadHeaders<R>(w, row_stride, b, g); }
  const uint8_t* Quants(int r, size_t b) const { return w[r * row_stride + b].qs; }
  void Prefetch(size_t b) const {
    if (next != nullptr) PrefetchTilePart(next, row_stride, b);
  }
  void PrefetchRow(int, size_t) const {}
};

// Computes y[r] for R <= 8 consecutive rows and prefetches the tile at `next` (null: none).
template <int R>
void GemvRows(const BlockQ4K* w, size_t row_stride, const GemvX* xp, size_t n_blocks, float* y,
              const BlockQ4K* next) {
  GemvTile<R>(GgufRows<R>{w, row_stride, next}, xp, n_blocks, y);
}

using GemvRowsFn = void (*)(const BlockQ4K*, size_t, const GemvX*, size_t, float*,
                            const BlockQ4K*);

// Index r - 1 handles a tile of r rows.
constexpr GemvRowsFn kGemvTiles[8] = {
    GemvRows<1>, GemvRows<2>, GemvRows<3>, GemvRows<4>,
    GemvRows<5>, GemvRows<6>, GemvRows<7>, GemvRows<8>,
};

}  // namespace

void Q4KGemmAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  if (n_tokens >= Avx512LaneTileFrom()) {
    Q4KLaneGemmAvx512(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
    return;
  }
  const GemvX* xp = PackGemvX(x, x_stride, n_tokens, n_blocks);
  WithCount<kAvx512FewTokensMax>(n_tokens, [&](auto tokens) {
    for (size_t r = 0; r < rows; r += 4) {
      WithCount<4>(std::min<size_t>(4, rows - r), [&](auto tile_rows) {
        constexpr int R = decltype(tile_rows)::value;
        FewTokensTile<R, decltype(tokens)::value>(GgufRows<R>{w + r * row_stride, row_stride, nullptr},
                                                  xp, n_blocks, n_blocks, y + r, y_stride);
      });
    }
  });
}

void Q4KGemvAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t n_blocks, float* y) {
  GemvByTiles(kGemvTiles, w, row_stride, rows, y, PackGemvX(x, n_blocks), n_blocks);
}

}  // namespace cpubrrr
