// AVX-512 VNNI MXFP4 x Q8_0 gemm on the repacked layout (kernels/mxfp4/mxfp4_repacked.h):
// four repacked groups (16 rows) decode straight into the lane tile's blocks
// (kernels/common/lane_tile_avx512-inl.h), so results are the oracle's bit for bit.
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/common/lane_tile_avx512-inl.h"
#include "kernels/mxfp4/code_plus128.h"
#include "kernels/mxfp4/e8m0_avx512-inl.h"
#include "kernels/mxfp4/mxfp4_repacked.h"

namespace cpubrrr {
namespace {

using lane_tile::LaneBlock;

// Repacked groups per 16-row lane group, and per 32-row panel.
constexpr size_t kLaneGroupGroups = lane_tile::kGroupRows / kRepackedRows;
constexpr size_t kPanelGroups = lane_tile::kPanelRows / kRepackedRows;
using Shape = Mxfp4RepackedShape;

// out[d] lane i = in[i] dword d, for 16 vectors of 16 dwords.
__attribute__((always_inline)) inline void Transpose16(const __m512i in[16], __m512i out[16]) {
  __m512i a[16], b[16];
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    a[2 * j] = _mm512_unpacklo_epi32(in[2 * j], in[2 * j + 1]);
    a[2 * j + 1] = _mm512_unpackhi_epi32(in[2 * j], in[2 * j + 1]);
  }
  // b[4q + c], 128-bit lane L: dword 4L + c of in[4q] .. in[4q + 3].
#pragma GCC unroll 4
  for (int q = 0; q < 4; ++q) {
    b[4 * q] = _mm512_unpacklo_epi64(a[4 * q], a[4 * q + 2]);
    b[4 * q + 1] = _mm512_unpackhi_epi64(a[4 * q], a[4 * q + 2]);
    b[4 * q + 2] = _mm512_unpacklo_epi64(a[4 * q + 1], a[4 * q + 3]);
    b[4 * q + 3] = _mm512_unpackhi_epi64(a[4 * q + 1], a[4 * q + 3]);
  }
  // out[4L + c], 128-bit lane q: b[4q + c]'s lane L (a 4 x 4 transpose of 128-bit lanes).
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    const __m512i t0 = _mm512_shuffle_i32x4(b[c], b[4 + c], 0x44);
    const __m512i t1 = _mm512_shuffle_i32x4(b[c], b[4 + c], 0xEE);
    const __m512i t2 = _mm512_shuffle_i32x4(b[8 + c], b[12 + c], 0x44);
    const __m512i t3 = _mm512_shuffle_i32x4(b[8 + c], b[12 + c], 0xEE);
    out[c] = _mm512_shuffle_i32x4(t0, t2, 0x88);
    out[4 + c] = _mm512_shuffle_i32x4(t0, t2, 0xDD);
    out[8 + c] = _mm512_shuffle_i32x4(t1, t3, 0x88);
    out[12 + c] = _mm512_shuffle_i32x4(t1, t3, 0xDD);
  }
}

// Decodes pair p of the 16 rows of four repacked groups (group[G]) into LaneBlocks for
// blocks 2p (*even) and 2p + 1 (*odd, when `two`). Lane i holds row kLaneRow[i], which
// is row i / 4 of group i % 4.
__attribute__((always_inline)) inline void DecodePair(const uint8_t* const group[kLaneGroupGroups],
                                                      size_t p, bool two, LaneBlock* even,
                                                      LaneBlock* odd) {
  const size_t quants = Shape::QuantOffset(p), scales = Shape::ScaleOffset(p);
  const __m512i lut = _mm512_load_si512(kMxfp4CodePlus128);
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  __m512i lanes[16];
#pragma GCC unroll 4
  for (size_t g = 0; g < kLaneGroupGroups; ++g) {
#pragma GCC unroll 2
    for (size_t v = 0; v < 2; ++v) {
      const __m512i codes = _mm512_load_si512(group[g] + quants + 64 * v);
      lanes[4 * (2 * v) + g] = _mm512_shuffle_epi8(lut, _mm512_and_si512(codes, low4));
      lanes[4 * (2 * v + 1) + g] =
          _mm512_shuffle_epi8(lut, _mm512_and_si512(_mm512_srli_epi16(codes, 4), low4));
    }
  }
  // values[d] lane i: dword d of row kLaneRow[i]'s 64 bytes; dwords 4h + m hold values
  // 4m .. 4m + 3 of block 2p + h and dwords 8 + 4h + m values 16 + 4m ...
  __m512i values[16];
  Transpose16(lanes, values);
  for (size_t h = 0; h < (two ? 2u : 1u); ++h) {
    LaneBlock* out = h == 0 ? even : odd;
#pragma GCC unroll 4
    for (int m = 0; m < 4; ++m) {
      _mm512_store_si512(&out->q[m], values[4 * h + m]);
      _mm512_store_si512(&out->q[4 + m], values[8 + 4 * h + m]);
    }
    alignas(16) uint8_t e[lane_tile::kGroupRows];
#pragma GCC unroll 16
    for (size_t i = 0; i < lane_tile::kGroupRows; ++i) {
      e[i] = group[i % 4][scales + 2 * (i / 4) + h];
    }
    _mm512_store_ps(&out->d, E8m0HalfLanes(_mm512_cvtepu8_epi32(
                                 _mm_load_si128(reinterpret_cast<const __m128i*>(e)))));
  }
}

}  // namespace

void GemmMxfp4RepackedAvx512(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                             size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                             size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  const size_t n_blocks = shape.n_blocks, group_bytes = shape.GroupBytes();
  const size_t group_end = std::min(group_begin + n_groups, shape.Groups());
  thread_local std::vector<lane_tile::TokenView> tokens;
  lane_tile::PackTokens(x, x_stride, n_tokens, n_blocks, tokens);
  thread_local std::vector<LaneBlock> panel;
  if (panel.size() < 2 * shape.Pairs() * 2) panel.resize(2 * shape.Pairs() * 2);
  for (size_t g0 = group_begin; g0 < group_end; g0 += kPanelGroups) {
    const size_t first_row = g0 * kRepackedRows;
    if (first_row >= shape.rows) break;
    const int n_rows = static_cast<int>(std::min({lane_tile::kPanelRows + size_t{0},
                                                  shape.rows - first_row,
                                                  (group_end - g0) * kRepackedRows}));
    for (size_t lg = 0; lg < 2; ++lg) {
      // Groups past the range repeat the panel's first (their lanes are never stored).
      const uint8_t* group[kLaneGroupGroups];
      for (size_t g = 0; g < kLaneGroupGroups; ++g) {
        const size_t at = g0 + kLaneGroupGroups * lg + g;
        group[g] = packed + (at < group_end ? at : g0) * group_bytes;
      }
      for (size_t p = 0; p < shape.Pairs(); ++p) {
        DecodePair(group, p, 2 * p + 1 < n_blocks, &panel[2 * (2 * p) + lg], &panel[2 * (2 * p + 1) + lg]);
      }
    }
    // The next panel's bytes are contiguous: 32 slices, each streamed over the blocks.
    const bool has_next = g0 + kPanelGroups < group_end;
    lane_tile::NextPanel next;
    const size_t slice = kPanelGroups * group_bytes / lane_tile::kPanelRows;
    next.block_bytes = (slice + n_blocks - 1) / n_blocks;
    for (int r = 0; r < lane_tile::kPanelRows; ++r) {
      next.rows[r] = packed + (g0 + kPanelGroups) * group_bytes + r * slice;
    }
    for (size_t t0 = 0; t0 < n_tokens; t0 += lane_tile::kTokenTile) {
      const size_t tile = std::min(n_tokens - t0, size_t{lane_tile::kTokenTile});
      lane_tile::kPanelTiles[tile - 1](panel.data(), n_blocks, tokens.data() + t0,
                                       y + t0 * y_stride + (g0 - group_begin) * kRepackedRows,
                                       y_stride, n_rows, t0 == 0 && has_next ? &next : nullptr);
    }
  }
}

}  // namespace cpubrrr
