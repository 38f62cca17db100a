// AVX-512 VNNI Q6_K x Q8_K gemv (vpdpbusd on unsigned 6-bit quants) in ggml's float order,
// and the gemm: the gemv per token below Avx512LaneTileFrom() tokens, from it on the lane
// tile of q6_k_gemm_avx512.cc (the oracle's order).
#include "kernels/q6_k/q6_k_avx512.h"

#include <immintrin.h>

#include "kernels/common/few_tokens.h"
#include "kernels/common/prefetch.h"
#include "kernels/kquant/avx512_lane_sums.h"
#include "kernels/kquant/gemv_tiles.h"
#include "kernels/kquant/ggml_x86_order.h"
#include "kernels/q6_k/q6_k_kernels.h"

namespace cpubrrr {
namespace {

// One block of one row, ready for vpdpbusd against 64 contiguous activation quants:
// q[k] holds the unsigned quants (0..63) of elements 64k .. 64k+64 in order; s[k] holds
// in int32 lane i the scale of sub-block 4k + i/4 (low 16 bits, upper 16 bits zero for
// vpdpwssd); s16 holds the 16 scales as int16.
struct Q6Block {
  __m512i q[4];
  __m512i s[4];
  __m256i s16;
};

inline Q6Block LoadBlock(const BlockQ6K& b) {
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  const __m512i bits45 = _mm512_set1_epi8(0x30);
  // qh byte l holds the top two bits of elements l, l+32, l+64, l+96 (in bit pairs 0-1,
  // 2-3, 4-5, 6-7); these shifts move each pair to bits 4-5 of its byte. The same 32 qh
  // bytes sit in both halves of a vector, whose halves cover elements l and l+32.
  const __m512i up_lo = _mm512_set_epi64(2, 2, 2, 2, 4, 4, 4, 4);
  const __m512i down_hi = _mm512_set_epi64(2, 2, 2, 2, 0, 0, 0, 0);
  Q6Block out;
#pragma GCC unroll 2
  for (int h = 0; h < 2; ++h) {
    const __m512i ql = _mm512_loadu_si512(b.ql + 64 * h);
    const __m512i qh = _mm512_broadcast_i64x4(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qh + 32 * h)));
    // 0xEC = (A & C) | B: the nibble of A under mask C, or'ed with the two high bits B.
    const __m512i hi_a = _mm512_and_si512(_mm512_sllv_epi64(qh, up_lo), bits45);
    out.q[2 * h] = _mm512_ternarylogic_epi32(ql, hi_a, low4, 0xEC);
    const __m512i hi_b = _mm512_and_si512(_mm512_srlv_epi64(qh, down_hi), bits45);
    out.q[2 * h + 1] = _mm512_ternarylogic_epi32(_mm512_srli_epi16(ql, 4), hi_b, low4, 0xEC);
  }
  const __m128i sc8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
  out.s16 = _mm256_cvtepi8_epi16(sc8);
  const __m512i sc32 = _mm512_and_si512(_mm512_cvtepi8_epi32(sc8), _mm512_set1_epi32(0xFFFF));
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    const int s = 4 * k;
    const __m512i idx = _mm512_set_epi32(s + 3, s + 3, s + 3, s + 3, s + 2, s + 2, s + 2, s + 2,
                                         s + 1, s + 1, s + 1, s + 1, s, s, s, s);
    out.s[k] = _mm512_permutexvar_epi32(idx, sc32);
  }
  return out;
}

// Returns int32 lanes summing to sum_s scales_s * dot(q_s, x_s) (quants unbiased). A
// vpdpbusd lane holds 4 products of at most 63 * 128, so it fits the int16 that
// vpdpwssd reads from its low half (the high half is only sign bits, multiplied by zero).
inline __m512i ScaledDots(const Q6Block& w, const int8_t* xq) {
  __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    const __m512i xv = _mm512_loadu_si512(xq + 64 * k);
    const __m512i dot = _mm512_dpbusd_epi32(_mm512_setzero_si512(), w.q[k], xv);
    acc = _mm512_dpwssd_epi32(acc, dot, w.s[k]);
  }
  return acc;
}

// Prefetches the part of the next 8-row tile (at `next`) that matches block b of this
// one, so the next tile streams in while this one computes: a contiguous tile (row_stride
// == n_blocks) front to back, 8 blocks per step, otherwise block b of each of its rows
// (the two measured the same on contiguous tiles).
inline void PrefetchTilePart(const BlockQ6K* next, size_t row_stride, size_t n_blocks, size_t b) {
  if (row_stride == n_blocks) {
    const char* p = reinterpret_cast<const char*>(next + 8 * b);
    PrefetchSpan<8 * sizeof(BlockQ6K)>(p);
    return;
  }
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    const char* p = reinterpret_cast<const char*>(next + r * row_stride + b);
    PrefetchSpan<sizeof(BlockQ6K)>(p);
  }
}

// Returns int32 lanes {(x_0, ..., x_7) * 32} with x_u = scales_2u * bsum_2u + scales_2u+1 *
// bsum_2u+1 of the first 16 int16 pairs of s16 and bsums, the same for the upper 16 pairs
// in lanes 8..15: the bias term ggml folds into its eight lanes (sub-blocks 2u, 2u + 1).
inline __m512i BiasLanes(__m512i s16, __m512i bsums) {
  return _mm512_slli_epi32(_mm512_madd_epi16(s16, bsums), 5);
}

// Writes y[i * y_stride] = Sum8(float lanes of row or token i) for i < n; acc[p] holds
// i = 2p, 2p + 1 (8 lanes each).
template <int kPairs>
inline void FinishTile(const __m512 (&acc)[kPairs], int n, float* y, size_t y_stride) {
  alignas(64) float lanes[kPairs][16];
  for (int p = 0; p < kPairs; ++p) _mm512_store_ps(lanes[p], acc[p]);
  for (int i = 0; i < n; ++i) y[i * y_stride] = ggml_x86::Sum8(&lanes[i / 2][8 * (i % 2)]);
}

// Computes y[r] for R <= 8 consecutive rows in ggml's order (kernels/kquant/ggml_x86_order.h):
// per row and block the scaled vpdpbusd sums come out in 16 int32 lanes whose halves add
// to ggml's eight (AddHalves, two rows to a vector); the quants enter unbiased, so the
// bias lanes are subtracted; then one FMA per row pair. When `next` is not null it points
// at the following 8 rows, which are prefetched.
template <int R>
void GemvRows(const BlockQ6K* w, size_t row_stride, const BlockQ8K* x, size_t n_blocks, float* y,
              const BlockQ6K* next) {
  __m512 acc[4];
  for (__m512& a : acc) a = _mm512_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    if (next != nullptr) PrefetchTilePart(next, row_stride, n_blocks, b);
    const __m512i bsums = _mm512_broadcast_i64x4(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].bsums)));
    __m512i sums[8];
    __m256i s16[8];
    uint16_t d16[8] = {};
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) {
      if (r < R) {
        const BlockQ6K& blk = w[r * row_stride + b];
        const Q6Block wb = LoadBlock(blk);
        sums[r] = ScaledDots(wb, x[b].qs);
        s16[r] = wb.s16;
        d16[r] = blk.d;
      } else {
        sums[r] = _mm512_setzero_si512();
        s16[r] = _mm256_setzero_si256();
      }
    }
    const __m256 d8 = _mm256_mul_ps(
        _mm256_set1_ps(x[b].d),
        _mm256_cvtph_ps(
            _mm_setr_epi16(d16[0], d16[1], d16[2], d16[3], d16[4], d16[5], d16[6], d16[7])));
    const __m512 dd = _mm512_castps256_ps512(d8);
#pragma GCC unroll 4
    for (int p = 0; p < 4; ++p) {
      if (2 * p < R) {
        const __m512i scales =
            _mm512_inserti64x4(_mm512_castsi256_si512(s16[2 * p]), s16[2 * p + 1], 1);
        const __m512i l = _mm512_sub_epi32(avx512::AddHalves(sums[2 * p], sums[2 * p + 1]),
                                           BiasLanes(scales, bsums));
        const __m512 d = _mm512_permutexvar_ps(
            _mm512_set_epi32(2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1, 2 * p + 1,
                             2 * p + 1, 2 * p + 1, 2 * p, 2 * p, 2 * p, 2 * p, 2 * p, 2 * p,
                             2 * p, 2 * p),
            dd);
        acc[p] = _mm512_fmadd_ps(d, _mm512_cvtepi32_ps(l), acc[p]);
      }
    }
  }
  FinishTile(acc, R, y, 1);
}

using GemvRowsFn = void (*)(const BlockQ6K*, size_t, const BlockQ8K*, size_t, float*,
                            const BlockQ6K*);

// Index r - 1 handles a tile of r rows.
constexpr GemvRowsFn kGemvTiles[8] = {
    GemvRows<1>, GemvRows<2>, GemvRows<3>, GemvRows<4>,
    GemvRows<5>, GemvRows<6>, GemvRows<7>, GemvRows<8>,
};

}  // namespace

void Q6KGemvAvx512(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t n_blocks, float* y) {
  GemvByTiles(kGemvTiles, w, row_stride, rows, y, x, n_blocks);
}

void Q6KGemmAvx512(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  if (n_tokens >= Avx512LaneTileFrom()) {
    Q6KLaneGemmAvx512(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
    return;
  }
  for (size_t t = 0; t < n_tokens; ++t) {
    Q6KGemvAvx512(w, row_stride, rows, x + t * x_stride, n_blocks, y + t * y_stride);
  }
}

}  // namespace cpubrrr
