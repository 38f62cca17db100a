// The Q4_K x Q8_K gemv tile of AVX-512 VNNI (vpdpbusd on unsigned nibbles) in ggml's float
// order, on rows in any layout: the GGUF one (q4_k_avx512.cc) and the repacked one
// (q4_k_repacked_avx512.cc) give the same bits. Include from a translation unit compiled
// with AVX-512 F/BW/VL/VNNI and F16C.
#ifndef CPUBRRR_KERNELS_Q4_K_Q4_K_GEMV_TILE_AVX512_INL_H_
#define CPUBRRR_KERNELS_Q4_K_Q4_K_GEMV_TILE_AVX512_INL_H_

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/kquant/avx512_lane_sums.h"
#include "kernels/kquant/ggml_x86_order.h"
#include "quant/q4_k.h"
#include "quant/q8_k.h"

namespace cpubrrr::q4_k_gemv {

// One block of activations for the gemv, in the order a 64-byte load of weight nibbles
// comes out: q[2h] holds elements 128h + [0, 32) and 128h + [64, 96) (the low nibbles of
// qs[64h, 64h + 64)), q[2h + 1] elements 128h + [32, 64) and 128h + [96, 128) (the high
// nibbles). So sub-blocks {4h, 4h + 2} meet q[2h] and {4h + 1, 4h + 3} meet q[2h + 1].
// With them what every tile would otherwise derive from the block again: the scales (d,
// then -d: the sign ggml gives the min products) and the sums of bsums pairs.
struct alignas(64) GemvX {
  int8_t q[4][64];
  float xd[16];       // x.d in floats 0..7, -x.d in 8..15
  int16_t pairs[32];  // per 128-bit lane: bsum_2j + bsum_2j+1, j = 0..7
};

// Returns this thread's buffer with x's n_blocks blocks in GemvX order.
inline const GemvX* PackGemvX(const BlockQ8K* x, size_t n_blocks) {
  thread_local std::vector<GemvX> buffer;
  if (buffer.size() < n_blocks) buffer.resize(n_blocks);
  for (size_t b = 0; b < n_blocks; ++b) {
    for (int h = 0; h < 2; ++h) {
      const int8_t* src = x[b].qs + 128 * h;
      auto quarter = [&](int i) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 32 * i));
      };
      _mm512_store_si512(buffer[b].q[2 * h],
                         _mm512_inserti64x4(_mm512_castsi256_si512(quarter(0)), quarter(2), 1));
      _mm512_store_si512(buffer[b].q[2 * h + 1],
                         _mm512_inserti64x4(_mm512_castsi256_si512(quarter(1)), quarter(3), 1));
    }
    for (int i = 0; i < 8; ++i) {
      buffer[b].xd[i] = x[b].d;
      buffer[b].xd[8 + i] = -x[b].d;
    }
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[b].bsums));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[b].bsums + 8));
    _mm512_store_si512(buffer[b].pairs, _mm512_broadcast_i32x4(_mm_hadd_epi16(lo, hi)));
  }
  return buffer.data();
}

// UnpackQ4KScales on four rows at once: headers as the tile's Headers returns them in, per
// lane {8 scale bytes, 8 min bytes} out. Header dwords per lane: d|dmin, a, b, c.
inline __m512i UnpackScalesMins(__m512i headers) {
  // Dwords {a, c, b, c >> 4} masked to {sc_lo, low nibbles of sc_hi, m_lo, low of m_hi} ...
  const __m512i acbc = _mm512_srlv_epi32(_mm512_shuffle_epi32(headers, _MM_PERM_DCDB),
                                         _mm512_set4_epi32(4, 0, 0, 0));
  const __m512i lows = _mm512_and_si512(
      acbc, _mm512_set4_epi32(0x0F0F0F0F, 0x3F3F3F3F, 0x0F0F0F0F, 0x3F3F3F3F));
  // ... or'ed with bits 4..5 of sc_hi and m_hi from the top two bits of a and b.
  const __m512i xaxb = _mm512_srli_epi32(_mm512_shuffle_epi32(headers, _MM_PERM_CCBB), 2);
  return _mm512_ternarylogic_epi32(lows, xaxb, _mm512_set4_epi32(0x30303030, 0, 0x30303030, 0),
                                   0xF8);  // lows | (xaxb & mask)
}

// Returns {d, dmin} of the 8 rows whose headers h0 (rows 0..3) and h1 (rows 4..7) hold, as
// floats: d of rows 0..7 in the low 256 bits, dmin above.
inline __m512 Scales(__m512i h0, __m512i h1) {
  const __m512i words = _mm512_set_epi16(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         57, 49, 41, 33, 25, 17, 9, 1, 56, 48, 40, 32, 24, 16, 8, 0);
  return _mm512_cvtph_ps(_mm512_castsi512_si256(_mm512_permutex2var_epi16(h0, words, h1)));
}

// Returns, for rows 0..3 (*a) and 4..7 (*b), each row's four min lanes of ggml's order in
// its 128-bit lane: m_2k * P_2k + m_2k+1 * P_2k+1 with P_j = bsum_2j + bsum_2j+1 of the
// block (GemvX::pairs), from the rows' min bytes m8 (qword r = row r).
inline void MinLanes(__m512i m8, const GemvX& xp, __m512i* a, __m512i* b) {
  const __m512i pairs = _mm512_load_si512(xp.pairs);
  *a = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(m8)), pairs);
  *b = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(m8, 1)), pairs);
}

// A row's four vpdpbusd vectors against GemvX (vector 2h + n, n = 0: low nibbles, 1: high,
// covers sub-block 4h + n in lanes 0..7 and 4h + 2 + n in lanes 8..15) hold sums of four
// products, |sum| <= 4 * 15 * 128, so each fits the low word of its int32 lane. vpermt2w
// with this control pairs the low words of vectors 2h and 2h + 1 lane by lane (word 2i
// from the first source, 2i + 1 from the second), and one vpdpwssd against the lanes'
// scale pairs adds the same integers as one vpdpwssd per vector would, with half the
// scale shuffles and vpdpwssd (hot gemv +10%, research log session 8).
alignas(64) inline constexpr uint16_t kPairWords[32] = {
    0, 32, 2, 34, 4, 36, 6, 38, 8, 40, 10, 42, 12, 44, 14, 46,
    16, 48, 18, 50, 20, 52, 22, 54, 24, 56, 26, 58, 28, 60, 30, 62};

// vpshufb controls that turn a row's eight scale bytes (in every 128-bit lane) into the
// scale pairs of half h: int32 lanes 0..7 hold the words (sc[4h], sc[4h + 1]), lanes 8..15
// (sc[4h + 2], sc[4h + 3]). Control bytes 0x80 give zero, so each word is the byte
// zero-extended.
alignas(64) inline constexpr uint32_t kPairScaleSelect[2][16] = {
#define CPUBRRR_PAIR(a, c) (0x80008000u | (a) | ((c) << 16))
#define CPUBRRR_SEL(lo, hi)                                                             \
  {CPUBRRR_PAIR(lo, lo + 1), CPUBRRR_PAIR(lo, lo + 1), CPUBRRR_PAIR(lo, lo + 1),         \
   CPUBRRR_PAIR(lo, lo + 1), CPUBRRR_PAIR(lo, lo + 1), CPUBRRR_PAIR(lo, lo + 1),         \
   CPUBRRR_PAIR(lo, lo + 1), CPUBRRR_PAIR(lo, lo + 1), CPUBRRR_PAIR(hi, hi + 1),         \
   CPUBRRR_PAIR(hi, hi + 1), CPUBRRR_PAIR(hi, hi + 1), CPUBRRR_PAIR(hi, hi + 1),         \
   CPUBRRR_PAIR(hi, hi + 1), CPUBRRR_PAIR(hi, hi + 1), CPUBRRR_PAIR(hi, hi + 1),         \
   CPUBRRR_PAIR(hi, hi + 1)}
    CPUBRRR_SEL(0, 2), CPUBRRR_SEL(4, 6),
#undef CPUBRRR_SEL
#undef CPUBRRR_PAIR
};

// Writes y[r] = Sum8(acc of row r) + Sum4(min lanes of row r) for r < n: acc[p] holds rows
// 2p, 2p + 1 (8 lanes each), accm[g] rows 4g .. 4g + 3 (4 lanes each). kVectorSums takes
// the sum trees on whole vectors (the same additions, avx512_lane_sums.h), otherwise per
// row on stored lanes. The vector form is faster in the benchmark on every shape (hot
// Q4_K expert down 35.6 -> 41.0 GB/s), but with it on every row shape qwen3 decode ran
// slower in 9 of 10 ABBA-ordered blocks (mostly by 2-9%; cause not found); with it on
// rows of at most 4 blocks only (the 3-block expert down) decode stayed within noise
// (research log, session 7).
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
          const __m512i dot_lo = _mm512_dpbusd_epi32(_mm512_setzero_si512(), lo,
                                                     _mm512_load_si512(xp[b].q[2 * h]));
          const __m512i dot_hi = _mm512_dpbusd_epi32(_mm512_setzero_si512(), hi,
                                                     _mm512_load_si512(xp[b].q[2 * h + 1]));
          const __m512i pair = _mm512_permutex2var_epi16(dot_lo, _mm512_load_si512(kPairWords), dot_hi);
          sum = _mm512_dpwssd_epi32(
              sum, pair, _mm512_shuffle_epi8(sc, _mm512_load_si512(kPairScaleSelect[h])));
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
      const __m512 d = _mm512_permutexvar_ps(
          _mm512_set_epi32(2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1,
                           2 * p + 1, 2 * p + 1, 2 * p, 2 * p, 2 * p, 2 * p, 2 * p, 2 * p,
                           2 * p, 2 * p),
          dd);
      const __m512i l = avx512::AddHalves(lanes[2 * p], lanes[2 * p + 1]);
      acc[p] = _mm512_fmadd_ps(d, _mm512_cvtepi32_ps(l), acc[p]);
    }
    __m512i mins[2];
    MinLanes(m8, xp[b], &mins[0], &mins[1]);
#pragma GCC unroll 2
    for (int g = 0; g < kQuads; ++g) {
      const int o = 8 + 4 * g;
      const __m512 dmin = _mm512_permutexvar_ps(
          _mm512_set_epi32(o + 3, o + 3, o + 3, o + 3, o + 2, o + 2, o + 2, o + 2, o + 1,
                           o + 1, o + 1, o + 1, o, o, o, o),
          dd);
      accm[g] = _mm512_fmadd_ps(dmin, _mm512_cvtepi32_ps(mins[g]), accm[g]);
    }
  }
  if (n_blocks <= kMaxBlocksForVectorSums) {
    FinishTile<true>(acc, accm, R, y);
  } else {
    FinishTile<false>(acc, accm, R, y);
  }
}

}  // namespace cpubrrr::q4_k_gemv

#endif  // CPUBRRR_KERNELS_Q4_K_Q4_K_GEMV_TILE_AVX512_INL_H_
