// The lane-tile gemm (kernels/tiles/lane_tile_avx512-inl.h) over a repacked matrix
// (kernels/common/repacked_layout.h): four groups of 4 rows decode into each 16-row lane
// group, and the lane tile runs unchanged, so results are the oracle's bit for bit.
// Include from a translation unit compiled with AVX-512 F/BW/VL/VNNI, F16C and
// -ffp-contract=off.
#ifndef CPUBRRR_KERNELS_TILES_REPACKED_LANE_TILE_AVX512_INL_H_
#define CPUBRRR_KERNELS_TILES_REPACKED_LANE_TILE_AVX512_INL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/tiles/lane_tile_avx512-inl.h"
#include "kernels/common/repacked_layout.h"
#include "quant/q8_0.h"

namespace cpubrrr::lane_tile {

// Repacked groups of four rows per 16-row lane group.
inline constexpr size_t kLaneGroupGroups = kGroupRows / kRepackedRows;

// Walks the 32-row panels of groups [group_begin, group_begin + n_groups) of a repacked
// matrix of `shape` at `packed` (rows below shape.rows only): per panel, decode(group, lg)
// for its two 16-row lane groups lg, group[] being the repacked groups of lane group lg:
// four groups of four rows (lane i: row i / 4 of group i % 4, which is row kLaneRow[i] of
// the 16), or one group of 16 rows; groups past the range repeat the panel's first, whose
// lanes are never stored. Then
// tile(t0, tile, r0, n_rows, next) for each tile of up to kTokenTile of n_tokens tokens,
// r0 being the panel's first row counted from group_begin's, and `next` the next panel's
// bytes as 32 slices during the first tile (null otherwise and after the last panel).
template <class Shape, class Decode, class Tile>
void ForEachRepackedPanel(const uint8_t* packed, const Shape& shape, size_t group_begin,
                          size_t n_groups, size_t n_tokens, Decode decode, Tile tile) {
  constexpr size_t kRows = Shape::kGroupRows;
  constexpr size_t kPerLaneGroup = kGroupRows / kRows, kPerPanel = kPanelRows / kRows;
  const size_t group_bytes = shape.GroupBytes();
  const size_t group_end = std::min(group_begin + n_groups, shape.Groups());
  for (size_t g0 = group_begin; g0 < group_end; g0 += kPerPanel) {
    const size_t first_row = g0 * kRows;
    if (first_row >= shape.rows) break;
    const int n_rows = static_cast<int>(std::min({size_t{kPanelRows}, shape.rows - first_row,
                                                  (group_end - g0) * kRows}));
    for (size_t lg = 0; lg < kPanelGroups; ++lg) {
      const uint8_t* group[kPerLaneGroup];
      for (size_t g = 0; g < kPerLaneGroup; ++g) {
        const size_t at = g0 + kPerLaneGroup * lg + g;
        group[g] = packed + (at < group_end ? at : g0) * group_bytes;
      }
      decode(group, lg);
    }
    // The next panel's bytes are contiguous: 32 slices, each streamed over the blocks.
    const bool has_next = g0 + kPerPanel < group_end;
    NextPanel next;
    const size_t slice = kPerPanel * group_bytes / kPanelRows;
    next.block_bytes = (slice + shape.n_blocks - 1) / shape.n_blocks;
    for (int r = 0; r < kPanelRows; ++r) {
      next.rows[r] = packed + (g0 + kPerPanel) * group_bytes + r * slice;
    }
    for (size_t t0 = 0; t0 < n_tokens; t0 += kTokenTile) {
      tile(t0, std::min(n_tokens - t0, size_t{kTokenTile}), (g0 - group_begin) * kRows,
           n_rows, t0 == 0 && has_next ? &next : nullptr);
    }
  }
}

// y[t * y_stride + r - kRepackedRows * group_begin] = dot(row r, token t) for the rows of
// groups [group_begin, group_begin + n_groups) below shape.rows, with
// decode_pair(group, p, two, even, odd) writing pair p of the 16 rows of the four groups
// group[0..3] (as ForEachRepackedPanel's) into the LaneBlocks of blocks 2p (*even) and,
// when `two`, 2p + 1 (*odd).
template <class Shape, class DecodePair>
void RepackedGemm(const uint8_t* packed, const Shape& shape, size_t group_begin, size_t n_groups,
                  const BlockQ8_0* x, size_t x_stride, size_t n_tokens, float* y, size_t y_stride,
                  DecodePair decode_pair) {
  const size_t n_blocks = shape.n_blocks;
  thread_local std::vector<TokenView> tokens;
  PackTokens(x, x_stride, n_tokens, n_blocks, tokens);
  thread_local std::vector<LaneBlock> panel;
  if (panel.size() < 2 * shape.Units() * kPanelGroups) panel.resize(2 * shape.Units() * kPanelGroups);
  ForEachRepackedPanel(
      packed, shape, group_begin, n_groups, n_tokens,
      [&](const uint8_t* const group[kLaneGroupGroups], size_t lg) {
        for (size_t p = 0; p < shape.Units(); ++p) {
          decode_pair(group, p, 2 * p + 1 < n_blocks, &panel[kPanelGroups * (2 * p) + lg],
                      &panel[kPanelGroups * (2 * p + 1) + lg]);
        }
      },
      [&](size_t t0, size_t tile, size_t r0, int n_rows, const NextPanel* next) {
        kPanelTiles<DecodedPanel>[tile - 1](DecodedPanel{panel.data()}, n_blocks, tokens.data() + t0,
                                            y + t0 * y_stride + r0, y_stride, n_rows, next);
      });
}

}  // namespace cpubrrr::lane_tile

#endif  // CPUBRRR_KERNELS_TILES_REPACKED_LANE_TILE_AVX512_INL_H_
