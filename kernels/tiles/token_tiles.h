// The row and token loops of a gemv and a gemm whose tile computes one weight row against
// T tokens at once (T = 1 for the gemv and for the gemm's leftover tokens), and the pick of
// a compile-time count at run time.
#ifndef CPUBRRR_KERNELS_TILES_TOKEN_TILES_H_
#define CPUBRRR_KERNELS_TILES_TOKEN_TILES_H_

#include <cstddef>
#include <type_traits>

namespace cpubrrr {

// `tile(std::integral_constant<int, T>{}, row, x, x_stride, n_blocks, y, y_stride)` writes
// y[t * y_stride] = dot(row, x + t * x_stride) for t < T, rows of n_blocks blocks.
template <typename W, typename X, typename Tile>
void GemvByRows(const W* w, size_t row_stride, size_t rows, const X* x, size_t n_blocks, float* y,
                Tile tile) {
  for (size_t r = 0; r < rows; ++r) {
    tile(std::integral_constant<int, 1>{}, w + r * row_stride, x, size_t{0}, n_blocks, y + r, size_t{0});
  }
}

// Per row, tiles of kTile tokens, then the rest one by one.
template <int kTile, typename W, typename X, typename Tile>
void GemmByTokenTiles(const W* w, size_t row_stride, size_t rows, const X* x, size_t x_stride,
                      size_t n_tokens, size_t n_blocks, float* y, size_t y_stride, Tile tile) {
  for (size_t r = 0; r < rows; ++r) {
    const W* row = w + r * row_stride;
    size_t t = 0;
    for (; t + kTile <= n_tokens; t += kTile) {
      tile(std::integral_constant<int, kTile>{}, row, x + t * x_stride, x_stride, n_blocks,
           y + t * y_stride + r, y_stride);
    }
    for (; t < n_tokens; ++t) {
      tile(std::integral_constant<int, 1>{}, row, x + t * x_stride, size_t{0}, n_blocks,
           y + t * y_stride + r, size_t{0});
    }
  }
}

// Calls fn(std::integral_constant<int, N>{}) for N = n, one of 1..kMax: a row or token
// count that a tile takes at compile time, picked at run time.
template <int kMax, typename Fn>
void WithCount(size_t n, Fn&& fn) {
  if (n == kMax) {
    fn(std::integral_constant<int, kMax>{});
  } else if constexpr (kMax > 1) {
    WithCount<kMax - 1>(n, fn);
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_TILES_TOKEN_TILES_H_
