// AVX-512 VNNI Q4_K x Q8_K gemv and gemm (vpdpbusd on unsigned nibbles), bit-exact with the oracle.
#include "kernels/q4_k/q4_k_avx512.h"

#include <immintrin.h>

#include <cstring>

#include "kernels/common/prefetch.h"
#include "kernels/kquant/avx512_lane_sums.h"
#include "kernels/kquant/gemv_tiles.h"
#include "kernels/kquant/q4_k_scales.h"

namespace cpubrrr {
namespace {

// One block of one row, ready for vpdpbusd against 64 contiguous activation quants.
// q[k] holds sub-block 2k in bytes 0..31 and sub-block 2k+1 in bytes 32..63 (so it lines
// up with x.qs[64k .. 64k+64)); s[k] holds the matching scales as int32 lanes (sc_2k in
// lanes 0..7, sc_2k+1 in lanes 8..15; upper 16 bits zero for vpdpwssd).
struct Q4Block {
  __m512i q[4];
  __m512i s[4];
};

inline Q4Block LoadBlock(const BlockQ4K& b, uint64_t sc) {
  // The 32 bytes of a sub-block pair are copied to both halves; the upper half is shifted
  // right 4 bits so that masking leaves the high nibbles there and the low nibbles below.
  const __m512i shifts = _mm512_set_epi64(4, 4, 4, 4, 0, 0, 0, 0);
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  const __m512i sc32 = _mm512_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<int64_t>(sc)));
  Q4Block out;
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    const __m256i pair = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs + 32 * k));
    out.q[k] = _mm512_and_si512(_mm512_srlv_epi64(_mm512_broadcast_i64x4(pair), shifts), low4);
    const __m512i idx = _mm512_set_epi32(2 * k + 1, 2 * k + 1, 2 * k + 1, 2 * k + 1, 2 * k + 1,
                                         2 * k + 1, 2 * k + 1, 2 * k + 1, 2 * k, 2 * k, 2 * k,
                                         2 * k, 2 * k, 2 * k, 2 * k, 2 * k);
    out.s[k] = _mm512_permutexvar_epi32(idx, sc32);
  }
  return out;
}

// Returns int32 lanes summing to isum = sum_j sc_j * dot(q_j, x_j) for one block. A
// vpdpbusd lane holds 4 products of at most 15 * 128, so it fits the int16 that vpdpwssd
// reads from its low half (the high half is only sign bits, multiplied by zero).
inline __m512i ScaledDots(const Q4Block& w, const int8_t* xq) {
  __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    const __m512i xv = _mm512_loadu_si512(xq + 64 * k);
    const __m512i dot = _mm512_dpbusd_epi32(_mm512_setzero_si512(), w.q[k], xv);
    acc = _mm512_dpwssd_epi32(acc, dot, w.s[k]);
  }
  return acc;
}

// Returns the eight 32-element sums of x's quants (pairs of its 16-element bsums) as int16.
inline __m128i PairSums(const BlockQ8K& x) {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x.bsums));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x.bsums + 8));
  return _mm_hadd_epi16(lo, hi);
}

// Returns {d, dmin} of up to 8 rows' block b as floats: d in the low 256 bits, dmin above.
template <int R>
inline __m512 Scales(const BlockQ4K* w, size_t row_stride, size_t b) {
  // d and dmin are adjacent fp16 values: one 32-bit load per row, then de-interleave.
  uint32_t pairs[8] = {};
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) std::memcpy(&pairs[r], &w[r * row_stride + b].d, 4);
  const __m256i packed = _mm256_setr_epi32(pairs[0], pairs[1], pairs[2], pairs[3], pairs[4],
                                           pairs[5], pairs[6], pairs[7]);
  const __m512i order = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  return _mm512_permutexvar_ps(order, _mm512_cvtph_ps(packed));
}

// Prefetches the part of the next 8-row tile (at `next`) that matches block b of this
// one, so the next tile streams in while this one computes: a contiguous tile (row_stride
// == n_blocks) front to back, 8 blocks per step, otherwise block b of each of its rows
// (the two measured the same on contiguous tiles).
inline void PrefetchTilePart(const BlockQ4K* next, size_t row_stride, size_t n_blocks, size_t b) {
  if (row_stride == n_blocks) {
    const char* p = reinterpret_cast<const char*>(next + 8 * b);
    PrefetchBytes(p, 8 * sizeof(BlockQ4K));
    return;
  }
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    const char* p = reinterpret_cast<const char*>(next + r * row_stride + b);
    PrefetchBytes(p, sizeof(BlockQ4K));
  }
}

// Computes y[r] for R <= 8 consecutive rows: per block, the integer sums of all R rows
// are reduced together and the float step runs on R lanes in the oracle's order. When
// `next` is not null it points at the following 8 rows, which are prefetched.
template <int R>
void GemvRows(const BlockQ4K* w, size_t row_stride, const BlockQ8K* x, size_t n_blocks,
              float* y, const BlockQ4K* next) {
  __m256 acc = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    if (next != nullptr) PrefetchTilePart(next, row_stride, n_blocks, b);
    const __m128i pairs = PairSums(x[b]);
    __m512i sums[16];  // isum parts of rows 0..7, then msum parts of rows 0..7
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) {
      if (r < R) {
        const BlockQ4K& blk = w[r * row_stride + b];
        const Q4KScalesMins u = UnpackQ4KScales(blk.scales);
        sums[r] = ScaledDots(LoadBlock(blk, u.sc), x[b].qs);
        const __m128i m16 = _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(u.m)));
        sums[8 + r] = _mm512_zextsi128_si512(_mm_madd_epi16(m16, pairs));
      } else {
        sums[r] = sums[8 + r] = _mm512_setzero_si512();
      }
    }
    const __m512i totals = avx512::LaneSums16(sums);
    const __m256 isum = _mm256_cvtepi32_ps(_mm512_castsi512_si256(totals));
    const __m256 msum = _mm256_cvtepi32_ps(_mm512_extracti64x4_epi64(totals, 1));
    const __m512 dd = Scales<R>(w, row_stride, b);
    const __m256 d = _mm512_castps512_ps256(dd);
    const __m256 dmin = _mm256_castsi256_ps(_mm512_extracti64x4_epi64(_mm512_castps_si512(dd), 1));
    const __m256 block = _mm256_sub_ps(_mm256_mul_ps(d, isum), _mm256_mul_ps(dmin, msum));
    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(x[b].d), block));
  }
  _mm256_mask_storeu_ps(y, static_cast<__mmask8>((1u << R) - 1), acc);
}

// Activation-side data of up to 16 tokens for one block, shared by every row: pairs[k]
// holds in int32 lane t the 32-element sums of token t for sub-blocks 2k (low 16 bits)
// and 2k+1 (high 16 bits); d holds the tokens' scales.
struct TokenBlock {
  __m512i pairs[4];
  __m512 d;
};

// Gathers TokenBlocks for blocks [b0, b0 + n) of T tokens.
template <int T>
void PrepareTokens(const BlockQ8K* x, size_t x_stride, size_t b0, size_t n, TokenBlock* out) {
  for (size_t i = 0; i < n; ++i) {
    alignas(64) int16_t p[4][16][2] = {};
    alignas(64) float d[16] = {};
    for (int t = 0; t < T; ++t) {
      const BlockQ8K& xb = x[t * x_stride + b0 + i];
      for (int j = 0; j < 8; ++j) {
        p[j / 2][t][j % 2] = static_cast<int16_t>(xb.bsums[2 * j] + xb.bsums[2 * j + 1]);
      }
      d[t] = xb.d;
    }
    for (int k = 0; k < 4; ++k) out[i].pairs[k] = _mm512_load_si512(p[k]);
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
void GemmTokens(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
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
        const BlockQ4K& blk = w[r * row_stride + b0 + i];
        const Q4KScalesMins u = UnpackQ4KScales(blk.scales);
        const Q4Block wb = LoadBlock(blk, u.sc);
        __m512i dots[16];
#pragma GCC unroll 16
        for (int t = 0; t < 16; ++t) {
          dots[t] = t < T ? ScaledDots(wb, x[t * x_stride + b0 + i].qs) : _mm512_setzero_si512();
        }
        const __m512i isum = avx512::LaneSums16(dots);
        // msum of all tokens at once: vpdpwssd pairs mins (m_2k, m_2k+1) with pairs[k].
        const __m512i m16 = _mm512_zextsi128_si512(
            _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(u.m))));
        __m512i msum = _mm512_setzero_si512();
      #pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
          const __m512i mins = _mm512_permutexvar_epi32(_mm512_set1_epi32(k), m16);
          msum = _mm512_dpwssd_epi32(msum, tokens[i].pairs[k], mins);
        }
        const __m512 d = _mm512_set1_ps(_cvtsh_ss(blk.d));
        const __m512 dmin = _mm512_set1_ps(_cvtsh_ss(blk.dmin));
        const __m512 block = _mm512_sub_ps(_mm512_mul_ps(d, _mm512_cvtepi32_ps(isum)),
                                           _mm512_mul_ps(dmin, _mm512_cvtepi32_ps(msum)));
        acc = _mm512_add_ps(acc, _mm512_mul_ps(tokens[i].d, block));
      }
      _mm512_store_ps(sums, acc);
      for (int t = 0; t < T; ++t) y[t * y_stride + r] = sums[t];
    }
  }
}

using GemmTokensFn = void (*)(const BlockQ4K*, size_t, size_t, const BlockQ8K*, size_t, size_t,
                              float*, size_t);

// Index t - 1 handles a tile of t tokens.
constexpr GemmTokensFn kGemmTiles[16] = {
    GemmTokens<1>,  GemmTokens<2>,  GemmTokens<3>,  GemmTokens<4>,
    GemmTokens<5>,  GemmTokens<6>,  GemmTokens<7>,  GemmTokens<8>,
    GemmTokens<9>,  GemmTokens<10>, GemmTokens<11>, GemmTokens<12>,
    GemmTokens<13>, GemmTokens<14>, GemmTokens<15>, GemmTokens<16>,
};

using GemvRowsFn = void (*)(const BlockQ4K*, size_t, const BlockQ8K*, size_t, float*,
                            const BlockQ4K*);

// Index r - 1 handles a tile of r rows.
constexpr GemvRowsFn kGemvTiles[8] = {
    GemvRows<1>, GemvRows<2>, GemvRows<3>, GemvRows<4>,
    GemvRows<5>, GemvRows<6>, GemvRows<7>, GemvRows<8>,
};

}  // namespace

void Q4KGemvAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t n_blocks, float* y) {
  GemvByTiles(kGemvTiles, w, row_stride, rows, x, n_blocks, y);
}

void Q4KGemmAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  for (size_t t = 0; t < n_tokens; t += 16) {
    const size_t tile = n_tokens - t < 16 ? n_tokens - t : 16;
    kGemmTiles[tile - 1](w, row_stride, rows, x + t * x_stride, x_stride, n_blocks,
                         y + t * y_stride, y_stride);
  }
}

}  // namespace cpubrrr
