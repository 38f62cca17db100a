// AVX-512 VNNI Q4_K x Q8_K gemv and gemm (vpdpbusd on unsigned nibbles), bit-exact with the oracle.
#include "kernels/q4_k/q4_k_avx512.h"

#include <immintrin.h>

#include <cstring>
#include <vector>

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

// One block of activations for the gemv, in the order a 64-byte load of weight nibbles
// comes out: q[2h] holds elements 128h + [0, 32) and 128h + [64, 96) (the low nibbles of
// qs[64h, 64h + 64)), q[2h + 1] elements 128h + [32, 64) and 128h + [96, 128) (the high
// nibbles). So sub-blocks {4h, 4h + 2} meet q[2h] and {4h + 1, 4h + 3} meet q[2h + 1].
struct alignas(64) GemvX {
  int8_t q[4][64];
};

// Returns this thread's buffer with x's n_blocks blocks in GemvX order.
const GemvX* PackGemvX(const BlockQ8K* x, size_t n_blocks) {
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
  }
  return buffer.data();
}

// Returns the 16 header bytes (d, dmin, the 12 scale bytes) of block b of rows 4g .. 4g + 3
// in the four 128-bit lanes; rows >= R are zero.
template <int R>
inline __m512i LoadHeaders(const BlockQ4K* w, size_t row_stride, size_t b, int g) {
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

// UnpackQ4KScales on four rows at once: headers as LoadHeaders returns them in, per lane
// {8 scale bytes, 8 min bytes} out. Header dwords per lane: d|dmin, a, b, c.
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

// Returns int32 lanes {isum of rows 0..7} given, per row, the SumsOf4PerLane of its four
// vpdpbusd vectors against GemvX (row_sums[r]) and the rows' scale bytes sc8 (qword r =
// row r).
inline __m256i ScaledSums(const __m512i row_sums[8], __m512i sc8) {
  // Per row: 128-bit lanes 0 + 1 hold sub-blocks {0, 1, 4, 5}, lanes 2 + 3 sub-blocks
  // {2, 3, 6, 7}; rows pair up two per vector, eight sums each.
  __m512i pair_sums[4];
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    pair_sums[c] = avx512::AddLanePairs(row_sums[2 * c], row_sums[2 * c + 1]);
  }
  // The scales in the same order, sub-blocks {0, 1, 4, 5, 2, 3, 6, 7} per row.
  const __m512i order = _mm512_set4_epi32(0x0F0E0B0A, 0x0D0C0908, 0x07060302, 0x05040100);
  const __m512i sc = _mm512_shuffle_epi8(sc8, order);
  __m512i products[4];
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    products[c] = _mm512_mullo_epi32(pair_sums[c],
                                     _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(sc, c)));
  }
  // Lane {0, 1} of product c is row 2c, lanes {2, 3} row 2c + 1: {r0, r2, r4, r6, r1, r3, r5, r7}.
  const __m512i q = avx512::SumsOf4PerLane(products[0], products[1], products[2], products[3]);
  const __m256i mixed = _mm512_castsi512_si256(avx512::AddLanePairs(q, q));
  return _mm256_permutevar8x32_epi32(mixed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

// Returns int32 lanes {msum of rows 0..7} from the rows' min bytes m8 (qword r = row r) and
// x's eight 32-element sums.
inline __m256i MinSums(__m512i m8, const BlockQ8K& x) {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x.bsums));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x.bsums + 8));
  const __m512i pairs = _mm512_broadcast_i32x4(_mm_hadd_epi16(lo, hi));
  // 128-bit lane L of a holds row L's four partial sums, of b row L + 4's.
  const __m512i a = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(m8)), pairs);
  const __m512i b = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(m8, 1)), pairs);
  const __m512i sums = avx512::SumsOf4PerLane(a, b, a, b);  // lane L: {row L, row L + 4, ..}
  return _mm512_castsi512_si256(_mm512_permutexvar_epi32(
      _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 0, 0, 0, 0, 0, 0, 0, 0), sums));
}

// Prefetches the part of the next 8-row tile (at `next`) that matches block b of this
// one, so the next tile streams in while this one computes: a contiguous tile (row_stride
// == n_blocks) front to back, 8 blocks per step, otherwise block b of each of its rows
// (the two measured the same on contiguous tiles).
inline void PrefetchTilePart(const BlockQ4K* next, size_t row_stride, size_t n_blocks, size_t b) {
  if (row_stride == n_blocks) {
    const char* p = reinterpret_cast<const char*>(next + 8 * b);
    PrefetchSpan<8 * sizeof(BlockQ4K)>(p);
    return;
  }
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    const char* p = reinterpret_cast<const char*>(next + r * row_stride + b);
    PrefetchSpan<sizeof(BlockQ4K)>(p);
  }
}

// Computes y[r] for R <= 8 consecutive rows against packed activations xp (x keeps the
// scales and sums): per block, the rows' integer sums come out together, 8 to a vector,
// and the float step runs on R lanes in the oracle's order. When `next` is not null it
// points at the following 8 rows, which are prefetched.
template <int R>
void GemvRows(const BlockQ4K* w, size_t row_stride, const GemvX* xp, const BlockQ8K* x,
              size_t n_blocks, float* y, const BlockQ4K* next) {
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  __m256 acc = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    if (next != nullptr) PrefetchTilePart(next, row_stride, n_blocks, b);
    __m512i row_sums[8];
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) {
      if (r < R) {
        __m512i dots[4];
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
          const __m512i q = _mm512_loadu_si512(w[r * row_stride + b].qs + 64 * h);
          const __m512i lo = _mm512_and_si512(q, low4);
          const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), low4);
          dots[2 * h] = _mm512_dpbusd_epi32(_mm512_setzero_si512(), lo,
                                            _mm512_load_si512(xp[b].q[2 * h]));
          dots[2 * h + 1] = _mm512_dpbusd_epi32(_mm512_setzero_si512(), hi,
                                                _mm512_load_si512(xp[b].q[2 * h + 1]));
        }
        row_sums[r] = avx512::SumsOf4PerLane(dots[0], dots[1], dots[2], dots[3]);
      } else {
        row_sums[r] = _mm512_setzero_si512();
      }
    }
    const __m512i h0 = LoadHeaders<R>(w, row_stride, b, 0);
    const __m512i h1 = LoadHeaders<R>(w, row_stride, b, 1);
    const __m512i u0 = UnpackScalesMins(h0), u1 = UnpackScalesMins(h1);
    const __m512i sc8 = _mm512_permutex2var_epi64(u0, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), u1);
    const __m512i m8 = _mm512_permutex2var_epi64(u0, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), u1);
    const __m256 isum = _mm256_cvtepi32_ps(ScaledSums(row_sums, sc8));
    const __m256 msum = _mm256_cvtepi32_ps(MinSums(m8, x[b]));
    const __m512 dd = Scales(h0, h1);
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

using GemvRowsFn = void (*)(const BlockQ4K*, size_t, const GemvX*, const BlockQ8K*, size_t,
                            float*, const BlockQ4K*);

// Index r - 1 handles a tile of r rows.
constexpr GemvRowsFn kGemvTiles[8] = {
    GemvRows<1>, GemvRows<2>, GemvRows<3>, GemvRows<4>,
    GemvRows<5>, GemvRows<6>, GemvRows<7>, GemvRows<8>,
};

}  // namespace

void Q4KGemvAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                   size_t n_blocks, float* y) {
  const GemvX* xp = PackGemvX(x, n_blocks);
  for (size_t r = 0; r < rows; r += 8) {
    const size_t tile = rows - r < 8 ? rows - r : 8;
    const BlockQ4K* next = rows - r >= 16 ? w + (r + 8) * row_stride : nullptr;
    kGemvTiles[tile - 1](w + r * row_stride, row_stride, xp, x, n_blocks, y + r, next);
  }
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
