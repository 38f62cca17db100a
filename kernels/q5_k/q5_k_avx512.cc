// AVX-512 VNNI Q5_K x Q8_K gemv on the GGUF layout in ggml's float order, 8-row tiles; the
// gemm, in the oracle's order, is in q5_k_gemm_avx512.cc.
#include "kernels/q5_k/q5_k_avx512.h"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/prefetch.h"
#include "kernels/kquant/avx512_lane_sums.h"
#include "kernels/kquant/gemv_tiles.h"
#include "kernels/kquant/scaled_min_gemv_avx512-inl.h"

namespace cpubrrr {
namespace {

using scaled_min_gemv::GemvX;
using scaled_min_gemv::kPairScaleSelect;
using scaled_min_gemv::kPairWords;
using scaled_min_gemv::PackGemvX;
using scaled_min_gemv::Scales;
using scaled_min_gemv::UnpackScalesMins;

// Returns the 16 header bytes (d, dmin, the 12 scale bytes, laid out as in Q4_K) of block b
// of rows 4g .. 4g + 3 in the four 128-bit lanes; rows >= R are zero.
template <int R>
inline __m512i LoadHeaders(const BlockQ5K* w, size_t row_stride, size_t b, int g) {
  __m512i h = _mm512_setzero_si512();
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    if (4 * g + i < R) {
      const __m128i row = _mm_loadu_si128(
          reinterpret_cast<const __m128i*>(&w[(4 * g + i) * row_stride + b]));
      h = _mm512_mask_broadcast_i32x4(h, static_cast<__mmask16>(0xF << (4 * i)), row);
    }
  }
  return h;
}

// Returns msum_r = sum_j m_rj * P_j (P_j = bsum_2j + bsum_2j+1, GemvX::pairs) of rows
// 0..7 in int32 lanes 0..7, from the rows' min bytes m8 (qword r = row r). The integer
// sum is exact, so its order is free.
inline __m256i MinSums(__m512i m8, const GemvX& xp) {
  const __m512i pairs = _mm512_load_si512(xp.pairs);
  // Lanes 4r' .. 4r' + 3 of a hold row r' < 4's four partial sums, those of b row 4 + r'.
  const __m512i a = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(m8)), pairs);
  const __m512i b = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(m8, 1)), pairs);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  // Lane k: partials 2k and 2k + 1 (row k / 2); then the two halves of each qword.
  const __m512i c = _mm512_add_epi32(_mm512_permutex2var_epi32(a, even, b),
                                     _mm512_permutex2var_epi32(a, odd, b));
  return _mm512_cvtepi64_epi32(_mm512_add_epi32(c, _mm512_srli_epi64(c, 32)));
}

// Shifts that move the fifth bit of the quants of a 64-byte load to bit 4 of each byte.
// qh byte i holds bit j of element i of sub-block j, and both 256-bit halves of the
// broadcast qh meet the load: for half h the low nibbles need bits 4h (lower half, sub-block
// 4h) and 4h + 2 (upper half), the high nibbles bits 4h + 1 and 4h + 3. Bit s reaches bit
// 4 by a left shift of 4 - s, or a right shift of s - 4; a 64-bit shift keeps every
// byte's bit 4 from its own byte, since |4 - s| <= 4.
inline __m512i FifthBits(__m512i qh, int h, bool high_nibbles) {
  const __m512i bit4 = _mm512_set1_epi8(0x10);
  const int lower = 4 * h + (high_nibbles ? 1 : 0), upper = lower + 2;
  __m512i shifted;
  if (h == 0) {
    shifted = _mm512_sllv_epi64(qh, _mm512_set_epi64(4 - upper, 4 - upper, 4 - upper, 4 - upper,
                                                     4 - lower, 4 - lower, 4 - lower, 4 - lower));
  } else {
    shifted = _mm512_srlv_epi64(qh, _mm512_set_epi64(upper - 4, upper - 4, upper - 4, upper - 4,
                                                     lower - 4, lower - 4, lower - 4, lower - 4));
  }
  return _mm512_and_si512(shifted, bit4);
}

// Prefetches the part of the next 8-row tile (at `next`) that matches block b of this
// one: block b of each of its rows, the order the tile will read it in, so the next tile
// streams in while this one computes (the Q4_K gemv's scheme; each line once).
inline void PrefetchTilePart(const BlockQ5K* next, size_t row_stride, size_t b) {
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    PrefetchLinesStartingIn<sizeof(BlockQ5K)>(next + r * row_stride + b);
  }
}

// Computes y[r] for R <= 8 consecutive rows against packed activations xp in ggml's order
// (kernels/kquant/ggml_x86_order.h): per row and block the four vpdpbusd vectors are
// scaled into 16 int32 lanes whose halves add to ggml's eight (AddHalves, two rows to a
// vector), then one FMA per row pair; the mins of 8 rows go as one exact integer sum per
// row into one FMA on 8 float lanes, ggml's scalar min accumulator per row. Prefetches
// the tile at `next` (null: none).
template <int R>
void GemvRows(const BlockQ5K* w, size_t row_stride, const GemvX* xp, size_t n_blocks, float* y,
              const BlockQ5K* next) {
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  constexpr int kPairs = (R + 1) / 2;
  __m512 acc[kPairs];
  for (__m512& a : acc) a = _mm512_setzero_ps();
  __m256 summs = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    if (next != nullptr) PrefetchTilePart(next, row_stride, b);
    const __m512i h0 = LoadHeaders<R>(w, row_stride, b, 0);
    const __m512i h1 = R > 4 ? LoadHeaders<R>(w, row_stride, b, 1) : _mm512_setzero_si512();
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
        const BlockQ5K& blk = w[r * row_stride + b];
        const __m512i sc = _mm512_set1_epi64(static_cast<int64_t>(sc8[r]));
        const __m512i qh = _mm512_broadcast_i64x4(
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk.qh)));
        __m512i sum = _mm512_setzero_si512();
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
          const __m512i q = _mm512_loadu_si512(blk.qs + 64 * h);
          // 0xEC = (A & C) | B: the nibble of A under mask C, or'ed with the fifth bit B.
          const __m512i lo = _mm512_ternarylogic_epi32(q, FifthBits(qh, h, false), low4, 0xEC);
          const __m512i hi = _mm512_ternarylogic_epi32(_mm512_srli_epi16(q, 4),
                                                       FifthBits(qh, h, true), low4, 0xEC);
          const __m512i dot_lo = _mm512_dpbusd_epi32(_mm512_setzero_si512(), lo,
                                                     _mm512_load_si512(xp[b].q[2 * h]));
          const __m512i dot_hi = _mm512_dpbusd_epi32(_mm512_setzero_si512(), hi,
                                                     _mm512_load_si512(xp[b].q[2 * h + 1]));
          const __m512i pair =
              _mm512_permutex2var_epi16(dot_lo, _mm512_load_si512(kPairWords), dot_hi);
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
    const __m256 dmin = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(dd), 1));
    summs = _mm256_fmadd_ps(dmin, _mm256_cvtepi32_ps(MinSums(m8, xp[b])), summs);
  }
  // y[r] = Sum8(lanes of row r) + summs_r: the trees on whole vectors (the same additions,
  // avx512_lane_sums.h), row 2p in lane 0 of sums[p], row 2p + 1 in lane 8.
  alignas(64) float sums[kPairs][16];
  alignas(32) float mins[8];
  for (int p = 0; p < kPairs; ++p) _mm512_store_ps(sums[p], avx512::Sum8Halves(acc[p]));
  _mm256_store_ps(mins, summs);
  for (int i = 0; i < R; ++i) y[i] = sums[i / 2][8 * (i % 2)] + mins[i];
}

using GemvRowsFn = void (*)(const BlockQ5K*, size_t, const GemvX*, size_t, float*,
                            const BlockQ5K*);

// Index r - 1 handles a tile of r rows.
constexpr GemvRowsFn kGemvTiles[8] = {
    GemvRows<1>, GemvRows<2>, GemvRows<3>, GemvRows<4>,
    GemvRows<5>, GemvRows<6>, GemvRows<7>, GemvRows<8>,
};

}  // namespace

void Q5KGemvAvx512(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t n_blocks, float* y) {
  GemvByTiles(kGemvTiles, w, row_stride, rows, y, PackGemvX(x, n_blocks), n_blocks);
}

}  // namespace cpubrrr
