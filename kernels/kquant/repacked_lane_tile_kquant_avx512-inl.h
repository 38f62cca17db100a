// The K-quant lane-tile gemm (kernels/kquant/lane_tile_kquant_avx512-inl.h) over a repacked
// matrix (kernels/common/repacked_layout.h): four groups of 4 rows decode into each 16-row
// lane group, and the panel tiles run unchanged, so results are the oracle's bit for bit.
// Include from a translation unit compiled with AVX-512 F/BW/VL/VNNI, F16C and
// -ffp-contract=off.
#ifndef CPUBRRR_KERNELS_KQUANT_REPACKED_LANE_TILE_KQUANT_AVX512_INL_H_
#define CPUBRRR_KERNELS_KQUANT_REPACKED_LANE_TILE_KQUANT_AVX512_INL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/tiles/repacked_lane_tile_avx512-inl.h"
#include "kernels/kquant/lane_tile_kquant_avx512-inl.h"

namespace cpubrrr::kquant_lanes {

// y[t * y_stride + r - kRepackedRows * group_begin] = dot(row r, token t) for the rows of
// groups [group_begin, group_begin + n_groups) below shape.rows, with a format F as for
// Gemm whose member DecodeRepacked(group, b, out) writes superblock b of the 16 rows of
// the four groups group[0..3] (row 4g + rr of the 16 is row rr of group g) into *out.
template <class F, class Shape>
void RepackedGemm(const uint8_t* packed, const Shape& shape, size_t group_begin, size_t n_groups,
                  const BlockQ8K* x, size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  const size_t n_blocks = shape.n_blocks;
  const F format;
  const TokenView* tokens = PackTokens(format, x, x_stride, n_tokens, n_blocks);
  thread_local std::vector<LaneSuper<F::kSubs>> panel;
  if (panel.size() < n_blocks * kPanelGroups) panel.resize(n_blocks * kPanelGroups);
  lane_tile::ForEachRepackedPanel(
      packed, shape, group_begin, n_groups, n_tokens,
      [&](const uint8_t* const group[lane_tile::kLaneGroupGroups], size_t lg) {
        for (size_t b = 0; b < n_blocks; ++b) format.DecodeRepacked(group, b, &panel[kPanelGroups * b + lg]);
      },
      [&](size_t t0, size_t tile, size_t r0, int n_rows, const lane_tile::NextPanel* next) {
        kPanelTiles<F>[tile - 1](panel.data(), n_blocks, tokens + t0, y + t0 * y_stride + r0,
                                 y_stride, n_rows, next);
      });
}

}  // namespace cpubrrr::kquant_lanes

#endif  // CPUBRRR_KERNELS_KQUANT_REPACKED_LANE_TILE_KQUANT_AVX512_INL_H_
