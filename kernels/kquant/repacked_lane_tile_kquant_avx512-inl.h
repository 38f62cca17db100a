// The K-quant lane-tile gemm (kernels/kquant/lane_tile_kquant_avx512-inl.h) over a repacked
// matrix (kernels/common/repacked_layout.h): four groups of 4 rows decode into each 16-row
// lane group, and the panel tiles run unchanged, so results are the oracle's bit for bit.
// Include from a translation unit compiled with AVX-512 F/BW/VL/VNNI, F16C and
// -ffp-contract=off.
#ifndef CPUBRRR_KERNELS_KQUANT_REPACKED_LANE_TILE_KQUANT_AVX512_INL_H_
#define CPUBRRR_KERNELS_KQUANT_REPACKED_LANE_TILE_KQUANT_AVX512_INL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/common/repacked_lane_tile_avx512-inl.h"
#include "kernels/kquant/lane_tile_kquant_avx512-inl.h"

namespace cpubrrr::kquant_lanes {

// y[t * y_stride + r - kRepackedRows * group_begin] = dot(row r, token t) for the rows of
// groups [group_begin, group_begin + n_groups) below shape.rows, with a format F as for
// Gemm whose member DecodeRepacked(group, b, out) writes superblock b of the 16 rows of
// the four groups group[0..3] (row 4g + rr of the 16 is row rr of group g) into *out.
template <class F, class Shape>
void RepackedGemm(const uint8_t* packed, const Shape& shape, size_t group_begin, size_t n_groups,
                  const BlockQ8K* x, size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  using lane_tile::kLaneGroupGroups;
  using lane_tile::kPanelGroupsRepacked;
  const size_t n_blocks = shape.n_blocks, group_bytes = shape.GroupBytes();
  const size_t group_end = std::min(group_begin + n_groups, shape.Groups());
  const F format;
  const TokenView* tokens = PackTokens(format, x, x_stride, n_tokens, n_blocks);
  thread_local std::vector<LaneSuper<F::kSubs>> panel;
  if (panel.size() < n_blocks * kPanelGroups) panel.resize(n_blocks * kPanelGroups);
  for (size_t g0 = group_begin; g0 < group_end; g0 += kPanelGroupsRepacked) {
    const size_t first_row = g0 * kRepackedRows;
    if (first_row >= shape.rows) break;
    const int n_rows = static_cast<int>(std::min({size_t{kPanelRows}, shape.rows - first_row,
                                                  (group_end - g0) * kRepackedRows}));
    for (size_t lg = 0; lg < kPanelGroups; ++lg) {
      // Groups past the range repeat the panel's first (their lanes are never stored).
      const uint8_t* group[kLaneGroupGroups];
      for (size_t g = 0; g < kLaneGroupGroups; ++g) {
        const size_t at = g0 + kLaneGroupGroups * lg + g;
        group[g] = packed + (at < group_end ? at : g0) * group_bytes;
      }
      for (size_t b = 0; b < n_blocks; ++b) format.DecodeRepacked(group, b, &panel[kPanelGroups * b + lg]);
    }
    // The next panel's bytes are contiguous: 32 slices, each prefetched one block's bytes
    // per superblock.
    const bool has_next = g0 + kPanelGroupsRepacked < group_end;
    lane_tile::NextPanel next;
    const size_t slice = kPanelGroupsRepacked * group_bytes / kPanelRows;
    for (int r = 0; r < kPanelRows; ++r) {
      next.rows[r] = packed + (g0 + kPanelGroupsRepacked) * group_bytes + r * slice;
    }
    for (size_t t0 = 0; t0 < n_tokens; t0 += kTokenTile) {
      const size_t tile = std::min(n_tokens - t0, size_t{kTokenTile});
      kPanelTiles<F>[tile - 1](panel.data(), n_blocks, tokens + t0,
                               y + t0 * y_stride + (g0 - group_begin) * kRepackedRows, y_stride,
                               n_rows, t0 == 0 && has_next ? &next : nullptr);
    }
  }
}

}  // namespace cpubrrr::kquant_lanes

#endif  // CPUBRRR_KERNELS_KQUANT_REPACKED_LANE_TILE_KQUANT_AVX512_INL_H_
