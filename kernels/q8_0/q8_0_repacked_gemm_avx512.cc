// AVX-512 VNNI Q8_0 x Q8_0 gemm on the repacked layout (kernels/q8_0/q8_0_repacked.h): the
// lane tile (kernels/tiles/lane_tile_avx512-inl.h) reading the stored groups as its panel,
// with nothing to decode, so results are the oracle's bit for bit.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/tiles/repacked_lane_tile_avx512-inl.h"
#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

using Shape = Q8_0RepackedShape;

// Two stored groups of 16 rows as the lane tile's panel (lane i: row i of the group).
struct StoredPanel {
  static constexpr bool kLanesPermuted = false;
  const uint8_t* group[lane_tile::kPanelGroups];
  __m512i Quants(size_t b, int g, int k) const {
    return _mm512_load_si512(group[g] + Shape::QuantOffset(b) + 64 * k);
  }
  __m512 Scales(size_t b, int g) const {
    return _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(group[g] + Shape::ScaleOffset(b))));
  }
};

}  // namespace

void Q8_0RepackedGemmAvx512(const uint8_t* packed, const Q8_0RepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                            size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  thread_local std::vector<lane_tile::TokenView> tokens;
  lane_tile::PackTokens(x, x_stride, n_tokens, shape.n_blocks, tokens);
  StoredPanel panel;
  lane_tile::ForEachRepackedPanel(
      packed, shape, group_begin, n_groups, n_tokens,
      [&](const uint8_t* const group[1], size_t lg) { panel.group[lg] = group[0]; },
      [&](size_t t0, size_t tile, size_t r0, int n_rows, const lane_tile::NextPanel* next) {
        lane_tile::kPanelTiles<StoredPanel>[tile - 1](panel, shape.n_blocks, tokens.data() + t0,
                                                      y + t0 * y_stride + r0, y_stride, n_rows, next);
      });
}

}  // namespace cpubrrr
