// AVX-512 VNNI gemm with one weight row per int32 lane, for 32-value block formats against
// Q8_0 activations, in the scalar oracle's float order; formats supply a block decoder.
// Include from a translation unit compiled with AVX-512 F/BW/VL/VNNI, F16C and
// -ffp-contract=off (the oracle's multiplies and adds are separate roundings).
//
// Sixteen rows share a register: lane i holds four weight bytes of one row, so one
// vpdpbusd with the matching four activation bytes broadcast advances sixteen rows'
// integer dots, eight finish a block, and the float step runs once per block for sixteen
// rows: sum += (d_w * d_x) * isum, block by block, as the oracles do, so every result
// equals the oracle's bit for bit, whatever the tile. Each 32-row panel is decoded once
// per call into a scratch buffer and then meets every token in tiles of six.
#ifndef CPUBRRR_KERNELS_TILES_LANE_TILE_AVX512_INL_H_
#define CPUBRRR_KERNELS_TILES_LANE_TILE_AVX512_INL_H_

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/common/prefetch.h"
#include "kernels/tiles/q8_0_token_pack.h"
#include "quant/q8_0.h"

namespace cpubrrr::lane_tile {

constexpr int kGroupRows = 16;             // rows per register
constexpr int kPanelGroups = 2;            // registers of rows per panel
constexpr int kPanelRows = kGroupRows * kPanelGroups;
constexpr int kTokenTile = 6;              // tokens per register tile

// Lane i of a group holds row kLaneRow[i] (the 4 x 4 dword transposes below put row
// 4a + c in lane 4c + a); the table is its own inverse.
alignas(64) inline constexpr int32_t kLaneRow[16] = {0, 4, 8, 12, 1, 5, 9, 13,
                                                     2, 6, 10, 14, 3, 7, 11, 15};

// One block of 16 rows ready for vpdpbusd: q[k] holds in lane i the values 4k .. 4k + 3
// of row kLaneRow[i] as unsigned bytes (value plus the format's offset); d holds each
// lane's weight scale d_w.
struct alignas(64) LaneBlock {
  __m512i q[8];
  __m512 d;
};

// Returns, for the 16 rows at rows[r] + offset (16 bytes each), four vectors: t[k] holds
// in lane i dword k of row kLaneRow[i].
__attribute__((always_inline)) inline void TransposeDwords(const uint8_t* const rows[kGroupRows],
                                                          size_t offset, __m512i t[4]) {
  __m512i quads[4];
#pragma GCC unroll 4
  for (int a = 0; a < 4; ++a) {
    auto at = [&](int c) __attribute__((always_inline)) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[4 * a + c] + offset));
    };
    const __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(at(0)), at(1), 1);
    const __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(at(2)), at(3), 1);
    quads[a] = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
  }
  // In each 128-bit lane c (rows c, 4 + c, 8 + c, 12 + c): a 4 x 4 dword transpose.
  const __m512i u0 = _mm512_unpacklo_epi32(quads[0], quads[1]);
  const __m512i u1 = _mm512_unpackhi_epi32(quads[0], quads[1]);
  const __m512i u2 = _mm512_unpacklo_epi32(quads[2], quads[3]);
  const __m512i u3 = _mm512_unpackhi_epi32(quads[2], quads[3]);
  t[0] = _mm512_unpacklo_epi64(u0, u2);
  t[1] = _mm512_unpackhi_epi64(u0, u2);
  t[2] = _mm512_unpacklo_epi64(u1, u3);
  t[3] = _mm512_unpackhi_epi64(u1, u3);
}

// out[d] lane i = in[i] dword d, for 16 vectors of 16 dwords (the repacked decoders:
// lane i of a 16-row group gets row kLaneRow[i]'s vector as in[i]).
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

// One token's activations as the tile reads them (the weights enter vpdpbusd plus 128).
using TokenView = Q8_0TokenView;

// Packs n_tokens tokens (x_stride blocks apart) into this thread's buffer; token t's view
// is views[t].
inline void PackTokens(const BlockQ8_0* x, size_t x_stride, size_t n_tokens, size_t n_blocks,
                       std::vector<TokenView>& views) {
  PackQ8_0Tokens(x, x_stride, n_tokens, n_blocks, 128, views);
}

// The panel after this one, to prefetch while this one computes, as kPanelRows streams
// that each advance block_bytes per block: its rows (the panel decode would otherwise wait
// for memory row by row), or for a repacked matrix 32 equal slices of its bytes.
struct NextPanel {
  const uint8_t* rows[kPanelRows];
  size_t block_bytes;
};

// A panel decoded into scratch: block b of group g at blocks[b * 2 + g], lane i of a
// group holding row kLaneRow[i].
struct DecodedPanel {
  static constexpr bool kLanesPermuted = true;
  const LaneBlock* blocks;
  __m512i Quants(size_t b, int g, int k) const { return _mm512_load_si512(&blocks[2 * b + g].q[k]); }
  __m512 Scales(size_t b, int g) const { return _mm512_load_ps(&blocks[2 * b + g].d); }
};

// Writes y[t * y_stride + r] for T tokens and the first n_rows rows of a panel of
// kPanelGroups groups of 16 rows, read through `Panel`: Quants(b, g, k) (the LaneBlock::q[k]
// of block b of group g), Scales(b, g) (its d) and kLanesPermuted (lane i holds row
// kLaneRow[i] rather than row i). `next`, unless null, is prefetched block by block.
template <int T, class Panel>
void PanelTile(const Panel panel, size_t n_blocks, const TokenView* tokens, float* y,
               size_t y_stride, int n_rows, const NextPanel* next) {
  __m512 acc[kPanelGroups][T];
#pragma GCC unroll 8
  for (int t = 0; t < T; ++t) {
    acc[0][t] = _mm512_setzero_ps();
    acc[1][t] = _mm512_setzero_ps();
  }
  for (size_t b = 0; b < n_blocks; ++b) {
    if (next != nullptr) {
#pragma GCC unroll 32
      for (int r = 0; r < kPanelRows; ++r) PrefetchLineL2(next->rows[r] + b * next->block_bytes);
    }
    __m512i dot[kPanelGroups][T];
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      dot[0][t] = dot[1][t] = _mm512_set1_epi32(tokens[t].seed[b]);
    }
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      const __m512i q0 = panel.Quants(b, 0, k);
      const __m512i q1 = panel.Quants(b, 1, k);
#pragma GCC unroll 8
      for (int t = 0; t < T; ++t) {
        int32_t four;
        std::memcpy(&four, tokens[t].q + 32 * b + 4 * k, 4);
        const __m512i x4 = _mm512_set1_epi32(four);
        dot[0][t] = _mm512_dpbusd_epi32(dot[0][t], q0, x4);
        dot[1][t] = _mm512_dpbusd_epi32(dot[1][t], q1, x4);
      }
    }
    const __m512 d0 = panel.Scales(b, 0), d1 = panel.Scales(b, 1);
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      const __m512 dx = _mm512_set1_ps(tokens[t].d[b]);
      acc[0][t] = _mm512_add_ps(
          acc[0][t], _mm512_mul_ps(_mm512_mul_ps(d0, dx), _mm512_cvtepi32_ps(dot[0][t])));
      acc[1][t] = _mm512_add_ps(
          acc[1][t], _mm512_mul_ps(_mm512_mul_ps(d1, dx), _mm512_cvtepi32_ps(dot[1][t])));
    }
  }
  const __m512i to_rows = _mm512_load_si512(kLaneRow);  // its own inverse: lane of row r
#pragma GCC unroll 2
  for (int g = 0; g < kPanelGroups; ++g) {
    const int valid_rows = n_rows - g * kGroupRows;
    if (valid_rows <= 0) break;
    const __mmask16 valid =
        valid_rows >= kGroupRows ? 0xFFFF : static_cast<__mmask16>((1u << valid_rows) - 1);
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      const __m512 rows = Panel::kLanesPermuted ? _mm512_permutexvar_ps(to_rows, acc[g][t]) : acc[g][t];
      _mm512_mask_storeu_ps(y + t * y_stride + g * kGroupRows, valid, rows);
    }
  }
}

template <class Panel>
using PanelTileFn = void (*)(Panel, size_t, const TokenView*, float*, size_t, int, const NextPanel*);

// Index t - 1 handles a tile of t tokens.
template <class Panel>
inline constexpr PanelTileFn<Panel> kPanelTiles[kTokenTile] = {
    PanelTile<1, Panel>, PanelTile<2, Panel>, PanelTile<3, Panel>,
    PanelTile<4, Panel>, PanelTile<5, Panel>, PanelTile<6, Panel>};

// The panel walk every lane-tile gemm shares: for each panel of kPanelRows rows (w's rows
// row_stride blocks apart), decode(group, b, g) for every block b of each 16-row group g
// (group[i]: row i of the group as bytes; rows past the matrix repeat the panel's first
// row, and their lanes are never stored), then tile(t0, tile, r0, n_rows, next) for each
// tile of up to kTokenTile tokens from t0; `next` is the next panel's rows during the
// first tile (null otherwise and after the last panel).
template <class Block, class Decode, class Tile>
void ForEachPanel(const Block* w, size_t row_stride, size_t rows, size_t n_blocks,
                  size_t n_tokens, Decode decode, Tile tile) {
  auto row_bytes = [&](size_t first, size_t r) {
    return reinterpret_cast<const uint8_t*>(w + (r < rows ? r : first) * row_stride);
  };
  NextPanel next;
  next.block_bytes = sizeof(Block);
  for (size_t r0 = 0; r0 < rows; r0 += kPanelRows) {
    const int n_rows = static_cast<int>(rows - r0 < kPanelRows ? rows - r0 : kPanelRows);
    for (int g = 0; g < kPanelGroups; ++g) {
      const uint8_t* group[kGroupRows];
      for (int i = 0; i < kGroupRows; ++i) group[i] = row_bytes(r0, r0 + g * kGroupRows + i);
      for (size_t b = 0; b < n_blocks; ++b) decode(group, b, g);
    }
    const bool has_next = r0 + kPanelRows < rows;
    for (int i = 0; has_next && i < kPanelRows; ++i) {
      next.rows[i] = row_bytes(r0 + kPanelRows, r0 + kPanelRows + i);
    }
    for (size_t t0 = 0; t0 < n_tokens; t0 += kTokenTile) {
      tile(t0, n_tokens - t0 < kTokenTile ? n_tokens - t0 : kTokenTile, r0, n_rows,
           t0 == 0 && has_next ? &next : nullptr);
    }
  }
}

// y[t * y_stride + r] = dot(row r, token t) for r < rows, t < n_tokens, with a Decoder:
// Decoder::Block and a member Decode(rows, offset, out) writing the block that starts
// `offset` bytes into each of 16 rows (rows[i], as bytes) into *out. Block b of row r is
// w[r * row_stride + b]; token t's blocks start at x + t * x_stride.
template <class Decoder>
void Gemm(const typename Decoder::Block* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
          size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  using Block = typename Decoder::Block;
  const Decoder decoder;
  thread_local std::vector<TokenView> tokens;
  PackTokens(x, x_stride, n_tokens, n_blocks, tokens);
  thread_local std::vector<LaneBlock> panel;
  if (panel.size() < n_blocks * kPanelGroups) panel.resize(n_blocks * kPanelGroups);
  ForEachPanel(w, row_stride, rows, n_blocks, n_tokens,
               [&](const uint8_t* const group[kGroupRows], size_t b, int g) {
                 decoder.Decode(group, b * sizeof(Block), &panel[2 * b + g]);
               },
               [&](size_t t0, size_t tile, size_t r0, int n_rows, const NextPanel* next) {
                 kPanelTiles<DecodedPanel>[tile - 1](DecodedPanel{panel.data()}, n_blocks,
                                                     tokens.data() + t0, y + t0 * y_stride + r0,
                                                     y_stride, n_rows, next);
               });
}

}  // namespace cpubrrr::lane_tile

#endif  // CPUBRRR_KERNELS_TILES_LANE_TILE_AVX512_INL_H_
