// AVX-512 VNNI gemm with one weight row per int32 lane for the K-quants (Q4_K, Q5_K, Q6_K)
// against Q8_K activations, in the scalar oracles' order; formats supply a decoder.
// Include from a translation unit compiled with AVX-512 F/BW/VL/VNNI, F16C and
// -ffp-contract=off (the oracles' multiplies and adds are separate roundings).
//
// As in kernels/tiles/lane_tile_avx512-inl.h, lane i of a register holds four weight
// bytes of row kLaneRow[i] and vpdpbusd meets them with four activation bytes broadcast.
// Per 256-value superblock the integer sums are the oracle's, in another (exact) order:
// each sub-block's dot (4 values per step, unsigned weights against signed activations)
// is multiplied by the lane's scale and added to isum; a term of int16 pairs against the
// token's 16-value sums (vpdpwssd) gives Q4_K's msum or Q6_K's -32 offset. Then the float
// step once per superblock, operand for operand the oracle's, so every result equals the
// oracle's bit for bit. Each 32-row panel is decoded once per call into a scratch buffer.
#ifndef CPUBRRR_KERNELS_KQUANT_LANE_TILE_KQUANT_AVX512_INL_H_
#define CPUBRRR_KERNELS_KQUANT_LANE_TILE_KQUANT_AVX512_INL_H_

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/tiles/lane_tile_avx512-inl.h"
#include "kernels/common/prefetch.h"
#include "quant/q8_k.h"

namespace cpubrrr::kquant_lanes {

using lane_tile::kGroupRows;
using lane_tile::kLaneRow;
using lane_tile::kPanelGroups;
using lane_tile::kPanelRows;
using lane_tile::kTokenTile;

// One superblock of 16 rows with kSubs sub-blocks of 256 / kSubs values: q[s * steps + k]
// holds in lane i the values 4k .. 4k + 3 of sub-block s of row kLaneRow[i] (unsigned
// bytes), sc[s] its int32 scale, pairs[p] two int16 weights for the token sums
// 2p, 2p + 1 (BlockQ8K::bsums order), d and dmin the float scales.
template <int kSubs>
struct alignas(64) LaneSuper {
  __m512i q[64];
  __m512i sc[kSubs];
  __m512i pairs[8];
  __m512 d;
  __m512 dmin;
};

// Decodes the 16 header bytes of a Q4_K or Q5_K superblock (d, dmin, the 12 scale bytes)
// of 16 rows, row r's at headers[r]: the 6-bit scales as int32 into out->sc, each min m_j
// as the int16 pair (m_j, m_j) against the bsums 2j, 2j + 1 into out->pairs, and d, dmin as
// floats. The scale bytes unpack as UnpackQ4KScales (kernels/kquant/q4_k_scales.h), per lane.
__attribute__((always_inline)) inline void DecodeScaledMinHeaders(
    const uint8_t* const headers[kGroupRows], LaneSuper<8>* out) {
  // Header dwords per lane: d | dmin << 16, then the scale bytes a (0..3), b (4..7), c (8..11).
  __m512i h[4];
  lane_tile::TransposeDwords(headers, 0, h);
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  const __m512i low6 = _mm512_set1_epi8(0x3F), bits45 = _mm512_set1_epi8(0x30);
  const __m512i sc_lo = _mm512_and_si512(h[1], low6);
  const __m512i m_lo = _mm512_and_si512(h[2], low6);
  const __m512i sc_hi = _mm512_or_si512(_mm512_and_si512(h[3], low4),
                                        _mm512_and_si512(_mm512_srli_epi32(h[1], 2), bits45));
  const __m512i m_hi =
      _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(h[3], 4), low4),
                      _mm512_and_si512(_mm512_srli_epi32(h[2], 2), bits45));
  const __m512i byte = _mm512_set1_epi32(0xFF);
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j) {
    out->sc[j] = _mm512_and_si512(_mm512_srli_epi32(sc_lo, 8 * j), byte);
    out->sc[4 + j] = _mm512_and_si512(_mm512_srli_epi32(sc_hi, 8 * j), byte);
    const __m512i m = _mm512_and_si512(_mm512_srli_epi32(m_lo, 8 * j), byte);
    const __m512i m4 = _mm512_and_si512(_mm512_srli_epi32(m_hi, 8 * j), byte);
    out->pairs[j] = _mm512_or_si512(m, _mm512_slli_epi32(m, 16));
    out->pairs[4 + j] = _mm512_or_si512(m4, _mm512_slli_epi32(m4, 16));
  }
  out->d = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(h[0]));
  out->dmin = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(h[0], 16)));
}

// One token's activations: its blocks and, per block, the 16-value sums as 8 int16 pairs
// (the format decides whether they come from bsums or are recomputed from the quants).
struct TokenView {
  const BlockQ8K* x;
  const int32_t* sums;
};

// Writes y[t * y_stride + r] for T tokens and the panel's first n_rows rows. F::kSubs
// gives the sub-blocks per superblock; F::kMins selects Q4_K's float step
// x.d * (d * isum - dmin * msum) (the pairs term is msum) over Q6_K's x.d * (d * isum)
// (the pairs term is part of isum).
// `next`, unless null, is the next panel's rows, prefetched superblock by superblock
// (32 / kSubs rows per sub-block) into L2: a panel ahead is more than L1 holds.
template <class F, int T>
void PanelTile(const LaneSuper<F::kSubs>* panel, size_t n_blocks, const TokenView* tokens,
               float* y, size_t y_stride, int n_rows, const lane_tile::NextPanel* next) {
  constexpr int kSteps = 64 / F::kSubs;  // vpdpbusd steps per sub-block
  constexpr int kPrefetchRows = kPanelRows / F::kSubs;  // next-panel rows per sub-block
  constexpr size_t kBlockBytes = sizeof(typename F::Block);
  __m512 acc[kPanelGroups][T];
#pragma GCC unroll 8
  for (int t = 0; t < T; ++t) acc[0][t] = acc[1][t] = _mm512_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const LaneSuper<F::kSubs>* w[kPanelGroups] = {&panel[2 * b], &panel[2 * b + 1]};
    const int8_t* xq[T];
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) xq[t] = tokens[t].x[b].qs;
    __m512i isum[kPanelGroups][T];
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) isum[0][t] = isum[1][t] = _mm512_setzero_si512();
#pragma GCC unroll 1
    for (int s = 0; s < F::kSubs; ++s) {
      if (next != nullptr) {
#pragma GCC unroll 4
        for (int r = s * kPrefetchRows; r < (s + 1) * kPrefetchRows; ++r) {
          PrefetchSpan<kBlockBytes, PrefetchLineL2>(next->rows[r] + b * kBlockBytes);
        }
      }
      __m512i dot[kPanelGroups][T];
#pragma GCC unroll 8
      for (int t = 0; t < T; ++t) dot[0][t] = dot[1][t] = _mm512_setzero_si512();
#pragma GCC unroll 8
      for (int k = 0; k < kSteps; ++k) {
        const __m512i q0 = _mm512_load_si512(&w[0]->q[s * kSteps + k]);
        const __m512i q1 = _mm512_load_si512(&w[1]->q[s * kSteps + k]);
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) {
          int32_t four;
          std::memcpy(&four, xq[t] + 4 * (s * kSteps + k), 4);
          const __m512i x4 = _mm512_set1_epi32(four);
          dot[0][t] = _mm512_dpbusd_epi32(dot[0][t], q0, x4);
          dot[1][t] = _mm512_dpbusd_epi32(dot[1][t], q1, x4);
        }
      }
#pragma GCC unroll 2
      for (int g = 0; g < kPanelGroups; ++g) {
        const __m512i sc = _mm512_load_si512(&w[g]->sc[s]);
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) {
          isum[g][t] = _mm512_add_epi32(isum[g][t], _mm512_mullo_epi32(dot[g][t], sc));
        }
      }
    }
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      const __m512 xd = _mm512_set1_ps(tokens[t].x[b].d);
      const int32_t* sums = tokens[t].sums + 8 * b;
#pragma GCC unroll 2
      for (int g = 0; g < kPanelGroups; ++g) {
        __m512i pair_sum = _mm512_setzero_si512();
#pragma GCC unroll 8
        for (int p = 0; p < 8; ++p) {
          pair_sum = _mm512_dpwssd_epi32(pair_sum, _mm512_load_si512(&w[g]->pairs[p]),
                                         _mm512_set1_epi32(sums[p]));
        }
        __m512 inner;
        if constexpr (F::kMins) {
          inner = _mm512_sub_ps(_mm512_mul_ps(w[g]->d, _mm512_cvtepi32_ps(isum[g][t])),
                                _mm512_mul_ps(w[g]->dmin, _mm512_cvtepi32_ps(pair_sum)));
        } else {
          inner = _mm512_mul_ps(w[g]->d,
                                _mm512_cvtepi32_ps(_mm512_add_epi32(isum[g][t], pair_sum)));
        }
        acc[g][t] = _mm512_add_ps(acc[g][t], _mm512_mul_ps(xd, inner));
      }
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
      _mm512_mask_storeu_ps(y + t * y_stride + g * kGroupRows, valid,
                            _mm512_permutexvar_ps(to_rows, acc[g][t]));
    }
  }
}

// Returns this thread's views of n_tokens tokens (x_stride blocks apart) with each block's
// 16-value sums as format.Sums writes them.
template <class F>
const TokenView* PackTokens(const F& format, const BlockQ8K* x, size_t x_stride, size_t n_tokens,
                            size_t n_blocks) {
  thread_local std::vector<int32_t> sums;
  thread_local std::vector<TokenView> tokens;
  if (sums.size() < n_tokens * n_blocks * 8) sums.resize(n_tokens * n_blocks * 8);
  tokens.resize(n_tokens);
  for (size_t t = 0; t < n_tokens; ++t) {
    const BlockQ8K* xt = x + t * x_stride;
    for (size_t b = 0; b < n_blocks; ++b) format.Sums(xt[b], &sums[(t * n_blocks + b) * 8]);
    tokens[t] = {xt, &sums[t * n_blocks * 8]};
  }
  return tokens.data();
}

// The panel tile of F for each token count 1 .. kTokenTile (index T - 1).
template <class F>
using PanelTileFn = void (*)(const LaneSuper<F::kSubs>*, size_t, const TokenView*, float*, size_t,
                             int, const lane_tile::NextPanel*);
template <class F>
inline constexpr PanelTileFn<F> kPanelTiles[kTokenTile] = {PanelTile<F, 1>, PanelTile<F, 2>,
                                                           PanelTile<F, 3>, PanelTile<F, 4>,
                                                           PanelTile<F, 5>, PanelTile<F, 6>};

// y[t * y_stride + r] = dot(row r, token t) for r < rows, t < n_tokens, with a format F:
// F::Block, kSubs, kMins, a member Decode(rows, offset, out) writing the superblock that
// starts `offset` bytes into each of 16 rows (rows[i], as bytes) into *out, and a member
// Sums(x, out) writing one activation block's 8 int16 pairs of 16-value sums. Block b of
// row r is w[r * row_stride + b]; token t's blocks start at x + t * x_stride.
template <class F>
void Gemm(const typename F::Block* w, size_t row_stride, size_t rows, const BlockQ8K* x,
          size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  using Block = typename F::Block;
  using Lanes = LaneSuper<F::kSubs>;
  const F format;
  const TokenView* tokens = PackTokens(format, x, x_stride, n_tokens, n_blocks);
  thread_local std::vector<Lanes> panel;
  if (panel.size() < n_blocks * kPanelGroups) panel.resize(n_blocks * kPanelGroups);
  lane_tile::ForEachPanel(
      w, row_stride, rows, n_blocks, n_tokens,
      [&](const uint8_t* const group[kGroupRows], size_t b, int g) {
        format.Decode(group, b * sizeof(Block), &panel[2 * b + g]);
      },
      [&](size_t t0, size_t tile, size_t r0, int n_rows, const lane_tile::NextPanel* next) {
        kPanelTiles<F>[tile - 1](panel.data(), n_blocks, tokens + t0, y + t0 * y_stride + r0,
                         y_stride, n_rows, next);
      });
}

}  // namespace cpubrrr::kquant_lanes

#endif  // CPUBRRR_KERNELS_KQUANT_LANE_TILE_KQUANT_AVX512_INL_H_
