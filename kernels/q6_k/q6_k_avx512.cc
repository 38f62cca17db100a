// AVX-512 VNNI Q6_K x Q8_K gemv and gemm (vpdpbusd on unsigned 6-bit quants), bit-exact with the oracle.
#include "kernels/q6_k/q6_k_avx512.h"

#include <immintrin.h>

#include <cstring>

#include "kernels/common/prefetch.h"
#include "kernels/kquant/avx512_lane_sums.h"
#include "kernels/kquant/gemv_tiles.h"

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

// Computes y[r] for R <= 8 consecutive rows: per block, the integer sums of all R rows
// are reduced together and the float step runs on R lanes in the oracle's order. The
// quants enter unbiased, so 32 * sum_s scales_s * bsum_s is subtracted. When `next` is
// not null it points at the following 8 rows, which are prefetched.
template <int R>
void GemvRows(const BlockQ6K* w, size_t row_stride, const BlockQ8K* x, size_t n_blocks, float* y,
              const BlockQ6K* next) {
  __m256 acc = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    if (next != nullptr) PrefetchTilePart(next, row_stride, n_blocks, b);
    const __m256i bsums = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].bsums));
    __m512i sums[8];
    uint16_t d16[8] = {};
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) {
      if (r < R) {
        const BlockQ6K& blk = w[r * row_stride + b];
        const Q6Block wb = LoadBlock(blk);
        const __m256i offsets = _mm256_slli_epi32(_mm256_madd_epi16(wb.s16, bsums), 5);
        sums[r] = _mm512_sub_epi32(ScaledDots(wb, x[b].qs), _mm512_zextsi256_si512(offsets));
        d16[r] = blk.d;
      } else {
        sums[r] = _mm512_setzero_si512();
      }
    }
    const __m256 isum = _mm256_cvtepi32_ps(avx512::LaneSums8(sums));
    const __m256 d = _mm256_cvtph_ps(
        _mm_setr_epi16(d16[0], d16[1], d16[2], d16[3], d16[4], d16[5], d16[6], d16[7]));
    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(x[b].d), _mm256_mul_ps(d, isum)));
  }
  _mm256_mask_storeu_ps(y, static_cast<__mmask8>((1u << R) - 1), acc);
}

// Activation-side data of up to 16 tokens for one block, shared by every row: bsums[k]
// holds in int32 lane t the 16-element sums of token t for sub-blocks 2k (low 16 bits)
// and 2k+1 (high 16 bits); d holds the tokens' scales.
struct TokenBlock {
  __m512i bsums[8];
  __m512 d;
};

// Gathers TokenBlocks for blocks [b0, b0 + n) of T tokens.
template <int T>
void PrepareTokens(const BlockQ8K* x, size_t x_stride, size_t b0, size_t n, TokenBlock* out) {
  for (size_t i = 0; i < n; ++i) {
    alignas(64) int16_t s[8][16][2] = {};
    alignas(64) float d[16] = {};
    for (int t = 0; t < T; ++t) {
      const BlockQ8K& xb = x[t * x_stride + b0 + i];
      for (int j = 0; j < 16; ++j) s[j / 2][t][j % 2] = xb.bsums[j];
      d[t] = xb.d;
    }
    for (int k = 0; k < 8; ++k) out[i].bsums[k] = _mm512_load_si512(s[k]);
    out[i].d = _mm512_load_ps(d);
  }
}

// Blocks per pass of the gemm: 16 tokens x 8 blocks x 256 quants = 32 KB of activations,
// which stays in a 48 KB L1 data cache while every row streams past it.
constexpr size_t kChunk = 8;

// Computes y[t * y_stride + r] for T <= 16 tokens and every row: each block of weights
// is unpacked once and used by all T tokens. Blocks go in chunks; y carries the float
// sums from one chunk to the next, so the additions keep the oracle's order.
template <int T>
void GemmTokens(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_blocks, float* y, size_t y_stride) {
  TokenBlock tokens[kChunk];
  for (size_t b0 = 0; b0 < n_blocks; b0 += kChunk) {
    const size_t n = n_blocks - b0 < kChunk ? n_blocks - b0 : kChunk;
    PrepareTokens<T>(x, x_stride, b0, n, tokens);
    for (size_t r = 0; r < rows; ++r) {
      alignas(64) float sums[16] = {};
      if (b0 > 0) {
        for (int t = 0; t < T; ++t) sums[t] = y[t * y_stride + r];
      }
      __m512 acc = _mm512_load_ps(sums);
      for (size_t i = 0; i < n; ++i) {
        const BlockQ6K& blk = w[r * row_stride + b0 + i];
        const Q6Block wb = LoadBlock(blk);
        __m512i dots[16];
#pragma GCC unroll 16
        for (int t = 0; t < 16; ++t) {
          dots[t] = t < T ? ScaledDots(wb, x[t * x_stride + b0 + i].qs) : _mm512_setzero_si512();
        }
        // sum_s scales_s * bsum_s of all tokens at once: vpdpwssd pairs scales
        // (s_2k, s_2k+1) with bsums[k].
        const __m512i s16 = _mm512_zextsi256_si512(wb.s16);
        __m512i offsets = _mm512_setzero_si512();
#pragma GCC unroll 8
        for (int k = 0; k < 8; ++k) {
          const __m512i pair = _mm512_permutexvar_epi32(_mm512_set1_epi32(k), s16);
          offsets = _mm512_dpwssd_epi32(offsets, tokens[i].bsums[k], pair);
        }
        const __m512i isum =
            _mm512_sub_epi32(avx512::LaneSums16(dots), _mm512_slli_epi32(offsets, 5));
        const __m512 d = _mm512_set1_ps(_cvtsh_ss(blk.d));
        acc = _mm512_add_ps(acc,
                            _mm512_mul_ps(tokens[i].d, _mm512_mul_ps(d, _mm512_cvtepi32_ps(isum))));
      }
      _mm512_store_ps(sums, acc);
      for (int t = 0; t < T; ++t) y[t * y_stride + r] = sums[t];
    }
  }
}

using GemmTokensFn = void (*)(const BlockQ6K*, size_t, size_t, const BlockQ8K*, size_t, size_t,
                              float*, size_t);

// Index t - 1 handles a tile of t tokens.
constexpr GemmTokensFn kGemmTiles[16] = {
    GemmTokens<1>,  GemmTokens<2>,  GemmTokens<3>,  GemmTokens<4>,
    GemmTokens<5>,  GemmTokens<6>,  GemmTokens<7>,  GemmTokens<8>,
    GemmTokens<9>,  GemmTokens<10>, GemmTokens<11>, GemmTokens<12>,
    GemmTokens<13>, GemmTokens<14>, GemmTokens<15>, GemmTokens<16>,
};

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
  GemvByTiles(kGemvTiles, w, row_stride, rows, x, n_blocks, y);
}

void Q6KGemmAvx512(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  for (size_t t = 0; t < n_tokens; t += 16) {
    const size_t tile = n_tokens - t < 16 ? n_tokens - t : 16;
    kGemmTiles[tile - 1](w, row_stride, rows, x + t * x_stride, x_stride, n_blocks,
                         y + t * y_stride, y_stride);
  }
}

}  // namespace cpubrrr
