// The Q4_K x Q8_K gemv tile of AVX-512 VNNI (vpdpbusd on unsigned nibbles) in ggml's float
// order, on rows in any layout: the GGUF one (q4_k_avx512.cc) and the repacked one
// (q4_k_repacked_avx512.cc) give the same bits. Include from a translation unit compiled
// with AVX-512 F/BW/VL/VNNI and F16C.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_GEMV_TILE_AVX512_INL_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_GEMV_TILE_AVX512_INL_H_

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/kquant/avx512_lane_sums.h"
#include "kernels/kquant/ggml_x86_order.h"
#include "kernels/kquant/scaled_min_gemv_avx512-inl.h"
#include "quant/q4_k.h"
#include "quant/q8_k.h"

namespace cpubrrr::q4_k_gemv {

using scaled_min_gemv::GemvX;
using scaled_min_gemv::kPairScaleSelect;
using scaled_min_gemv::kPairWords;
using scaled_min_gemv::PackGemvX;
using scaled_min_gemv::Scales;
using scaled_min_gemv::UnpackScalesMins;

// Returns, for rows 0..3 (*a) and 4..7 (*b), each row's four min lanes of ggml's order in
// its 128-bit lane: m_2k * P_2k + m_2k+1 * P_2k+1 with P_j = bsum_2j + bsum_2j+1 of the
// block (GemvX::pairs), from the rows' min bytes m8 (qword r = row r).
inline void MinLanes(__m512i m8, const GemvX& xp, __m512i* a, __m512i* b) {
  const __m512i pairs = _mm512_load_si512(xp.pairs);
  *a = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(m8)), pairs);
  *b = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(m8, 1)), pairs);
}

// Writes y[r] = Sum8(acc of row r) + Sum4(min lanes of row r) for r < n: acc[p] holds rows
// 2p, 2p + 1 (8 lanes each), accm[g] rows 4g .. 4g + 3 (4 lanes each). kVectorSums takes
// the sum trees on whole vectors (the same additions, avx512_lane_sums.h), otherwise per
// row on stored lanes. The vector form is faster in the benchmark on every shape, but
// with it on every row shape qwen3 decode ran slower in nearly every ABBA-ordered block
// (cause not found); with it on rows of at most 4 blocks only (the 3-block expert down)
// decode stayed within noise (research log).
template <bool kVectorSums, int kPairs, int kQuads>
inline void FinishTile(const __m512 (&acc)[kPairs], const __m512 (&accm)[kQuads], int n,
                       float* y) {
  alignas(64) float sums[kPairs][16];
  alignas(64) float mins[kQuads][16];
  for (int p = 0; p < kPairs; ++p) {
    _mm512_store_ps(sums[p], kVectorSums ? avx512::Sum8Halves(acc[p]) : acc[p]);
  }
  for (int g = 0; g < kQuads; ++g) {
    _mm512_store_ps(mins[g], kVectorSums ? avx512::Sum4Quarters(accm[g]) : accm[g]);
  }
  for (int i = 0; i < n; ++i) {
    const float* row = &sums[i / 2][8 * (i % 2)];
    const float* row_mins = &mins[i / 4][4 * (i % 4)];
    y[i] = kVectorSums ? row[0] + row_mins[0] : ggml_x86::Sum8(row) + ggml_x86::Sum4(row_mins);
  }
}

// Rows of up to this many blocks finish with vector sum trees (FinishTile).
inline constexpr size_t kMaxBlocksForVectorSums = 4;

// Adds half h of one row's block against activations xb to the row's int32 lanes `sum`:
// lo and hi are the low and high nibbles of the half's 64 quant bytes, scale_pairs the
// row's scale bytes through kPairScaleSelect[h].
__attribute__((always_inline)) inline __m512i AddHalf(__m512i sum, __m512i lo, __m512i hi,
                                                      const GemvX& xb, int h, __m512i scale_pairs) {
  const __m512i dot_lo = _mm512_dpbusd_epi32(_mm512_setzero_si512(), lo, _mm512_load_si512(xb.q[2 * h]));
  const __m512i dot_hi = _mm512_dpbusd_epi32(_mm512_setzero_si512(), hi, _mm512_load_si512(xb.q[2 * h + 1]));
  const __m512i pair = _mm512_permutex2var_epi16(dot_lo, _mm512_load_si512(kPairWords), dot_hi);
  return _mm512_dpwssd_epi32(sum, pair, scale_pairs);
}

// From dd (d of rows 0..7 in floats 0..7, -dmin in 8..15, each times x.d): d of rows 2p
// and 2p + 1, each in its row's eight lanes.
inline __m512 PairScales(__m512 dd, int p) {
  return _mm512_permutexvar_ps(
      _mm512_set_epi32(2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1,
                       2 * p + 1, 2 * p + 1, 2 * p, 2 * p, 2 * p, 2 * p, 2 * p, 2 * p, 2 * p, 2 * p),
      dd);
}

// From dd as above: -dmin of rows 4g .. 4g + 3, each in its row's four lanes.
inline __m512 QuadMinScales(__m512 dd, int g) {
  const int o = 8 + 4 * g;
  return _mm512_permutexvar_ps(_mm512_set_epi32(o + 3, o + 3, o + 3, o + 3, o + 2, o + 2, o + 2, o + 2,
                                                o + 1, o + 1, o + 1, o + 1, o, o, o, o),
                               dd);
}

// Writes the R results of a tile's accumulators to y through FinishTile, the sum trees
// chosen by the row length.
template <int kPairs, int kQuads>
__attribute__((always_inline)) inline void FinishRows(const __m512 (&acc)[kPairs], const __m512 (&accm)[kQuads], int n,
                       size_t n_blocks, float* y) {
  if (n_blocks <= kMaxBlocksForVectorSums) {
    FinishTile<true>(acc, accm, n, y);
  } else {
    FinishTile<false>(acc, accm, n, y);
  }
}

// Computes y[r] for R <= 8 rows of `rows` against packed activations xp in ggml's order (kernels/kquant/ggml_x86_order.h): per row and block the
// four vpdpbusd vectors are scaled into 16 int32 lanes whose halves add to ggml's eight
// (AddHalves, two rows to a vector), then one FMA per row pair and one per four rows' mins.
// `rows` says where the bytes are, whatever the layout: Headers(b, g) returns the 16
// header bytes (d, dmin, the 12 scale bytes) of block b of rows 4g .. 4g + 3 in the four
// 128-bit lanes (rows >= R zero; called for 4g < R), Quants(r, b) the 128 quant bytes of
// block b of row r, and Prefetch(b) and PrefetchRow(r, b) ask for what the tile reads
// later as block b, and row r of it, start.
template <int R, class Rows>
__attribute__((always_inline)) inline void GemvTile(const Rows& rows, const GemvX* xp,
                                                    size_t n_blocks, float* y) {
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  constexpr int kPairs = (R + 1) / 2, kQuads = (R + 3) / 4;
  __m512 acc[kPairs], accm[kQuads];
  for (__m512& a : acc) a = _mm512_setzero_ps();
  for (__m512& a : accm) a = _mm512_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    rows.Prefetch(b);
    const __m512i h0 = rows.Headers(b, 0);
    const __m512i h1 = R > 4 ? rows.Headers(b, 1) : _mm512_setzero_si512();
    const __m512i u0 = UnpackScalesMins(h0), u1 = UnpackScalesMins(h1);
    alignas(64) uint64_t sc8[8];
    const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    _mm512_store_si512(sc8, _mm512_permutex2var_epi64(u0, even, u1));
    const __m512i m8 =
        _mm512_permutex2var_epi64(u0, _mm512_add_epi64(even, _mm512_set1_epi64(1)), u1);
    __m512i lanes[8];
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) {
      if (r < R) {
        rows.PrefetchRow(r, b);
        const __m512i sc = _mm512_set1_epi64(static_cast<int64_t>(sc8[r]));
        __m512i sum = _mm512_setzero_si512();
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
          const __m512i q = _mm512_loadu_si512(rows.Quants(r, b) + 64 * h);
          const __m512i lo = _mm512_and_si512(q, low4);
          const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), low4);
          sum = AddHalf(sum, lo, hi, xp[b], h,
                        _mm512_shuffle_epi8(sc, _mm512_load_si512(kPairScaleSelect[h])));
        }
        lanes[r] = sum;
      } else {
        lanes[r] = _mm512_setzero_si512();
      }
    }
    // d = x.d * d_row in the low 256 bits, -x.d * dmin_row above (ggml's products).
    const __m512 dd = _mm512_mul_ps(_mm512_load_ps(xp[b].xd), Scales(h0, h1));
#pragma GCC unroll 4
    for (int p = 0; p < kPairs; ++p) {
      const __m512 d = PairScales(dd, p);
      const __m512i l = avx512::AddHalves(lanes[2 * p], lanes[2 * p + 1]);
      acc[p] = _mm512_fmadd_ps(d, _mm512_cvtepi32_ps(l), acc[p]);
    }
    __m512i mins[2];
    MinLanes(m8, xp[b], &mins[0], &mins[1]);
#pragma GCC unroll 2
    for (int g = 0; g < kQuads; ++g) {
      const __m512 dmin = QuadMinScales(dd, g);
      accm[g] = _mm512_fmadd_ps(dmin, _mm512_cvtepi32_ps(mins[g]), accm[g]);
    }
  }
  FinishRows(acc, accm, R, n_blocks, y);
}

// GemvTile's results for T tokens at once on R <= 4 rows (a few tokens routed to one
// expert): token t's activations at xp + t * xp_stride, its results at y + t * y_stride.
// Each row's quants are loaded and split into nibbles once for all T tokens; from the
// vpdpbusd on every step runs per token as in GemvTile, so each token gets the bits
// GemvTile gives it alone.
template <int R, int T, class Rows>
__attribute__((always_inline)) inline void FewTokensTile(const Rows& rows, const GemvX* xp,
                                                         size_t xp_stride, size_t n_blocks,
                                                         float* y, size_t y_stride) {
  static_assert(R >= 1 && R <= 4 && T >= 1);
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  constexpr int kPairs = (R + 1) / 2;
  __m512 acc[T][kPairs], accm[T][1];
  for (int t = 0; t < T; ++t) {
    for (__m512& a : acc[t]) a = _mm512_setzero_ps();
    accm[t][0] = _mm512_setzero_ps();
  }
  for (size_t b = 0; b < n_blocks; ++b) {
    rows.Prefetch(b);
    const __m512i h0 = rows.Headers(b, 0);
    // Per 128-bit lane r: row r's eight scale bytes, then its eight min bytes.
    const __m512i u0 = UnpackScalesMins(h0);
    alignas(64) uint64_t scales_mins[8];
    _mm512_store_si512(scales_mins, u0);
    const __m512i mins16 = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(
        _mm512_permutexvar_epi64(_mm512_setr_epi64(1, 3, 5, 7, 1, 3, 5, 7), u0)));
    const __m512 scales = Scales(h0, _mm512_setzero_si512());
    __m512 dd[T];
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) dd[t] = _mm512_mul_ps(_mm512_load_ps(xp[t * xp_stride + b].xd), scales);
#pragma GCC unroll 2
    for (int p = 0; p < kPairs; ++p) {
      __m512i lanes[2][T];
#pragma GCC unroll 2
      for (int i = 0; i < 2; ++i) {
        const int r = 2 * p + i;
        if (r >= R) {
          for (__m512i& l : lanes[i]) l = _mm512_setzero_si512();
          continue;
        }
        rows.PrefetchRow(r, b);
        const __m512i sc = _mm512_set1_epi64(static_cast<int64_t>(scales_mins[2 * r]));
        const __m512i pairs0 = _mm512_shuffle_epi8(sc, _mm512_load_si512(kPairScaleSelect[0]));
        const __m512i pairs1 = _mm512_shuffle_epi8(sc, _mm512_load_si512(kPairScaleSelect[1]));
        const __m512i q0 = _mm512_loadu_si512(rows.Quants(r, b));
        const __m512i q1 = _mm512_loadu_si512(rows.Quants(r, b) + 64);
        const __m512i lo0 = _mm512_and_si512(q0, low4);
        const __m512i hi0 = _mm512_and_si512(_mm512_srli_epi16(q0, 4), low4);
        const __m512i lo1 = _mm512_and_si512(q1, low4);
        const __m512i hi1 = _mm512_and_si512(_mm512_srli_epi16(q1, 4), low4);
#pragma GCC unroll 4
        for (int t = 0; t < T; ++t) {
          const GemvX& xb = xp[t * xp_stride + b];
          lanes[i][t] = AddHalf(AddHalf(_mm512_setzero_si512(), lo0, hi0, xb, 0, pairs0), lo1, hi1,
                                xb, 1, pairs1);
        }
      }
#pragma GCC unroll 4
      for (int t = 0; t < T; ++t) {
        const __m512i l = avx512::AddHalves(lanes[0][t], lanes[1][t]);
        acc[t][p] = _mm512_fmadd_ps(PairScales(dd[t], p), _mm512_cvtepi32_ps(l), acc[t][p]);
      }
    }
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) {
      const __m512i mins = _mm512_madd_epi16(mins16, _mm512_load_si512(xp[t * xp_stride + b].pairs));
      accm[t][0] = _mm512_fmadd_ps(QuadMinScales(dd[t], 0), _mm512_cvtepi32_ps(mins), accm[t][0]);
    }
  }
  for (int t = 0; t < T; ++t) FinishRows(acc[t], accm[t], R, n_blocks, y + t * y_stride);
}

}  // namespace cpubrrr::q4_k_gemv

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_GEMV_TILE_AVX512_INL_H_
