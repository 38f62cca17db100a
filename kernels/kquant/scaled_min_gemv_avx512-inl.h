// The activation packing, scale unpacking and vpdpwssd pairing tables the AVX-512 VNNI
// gemv tiles of Q4_K and Q5_K (ggml's float order) share. Include from a translation unit
// compiled with AVX-512 F/BW/VL/VNNI and F16C.
#ifndef CPUBRRR_KERNELS_KQUANT_SCALED_MIN_GEMV_AVX512_INL_H_
#define CPUBRRR_KERNELS_KQUANT_SCALED_MIN_GEMV_AVX512_INL_H_

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "quant/q8_k.h"

namespace cpubrrr::scaled_min_gemv {

// One block of activations for the gemv, in the order a 64-byte load of weight quants
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

// Writes activation block x to *out in GemvX order.
inline void PackGemvBlock(const BlockQ8K& x, GemvX* out) {
  for (int h = 0; h < 2; ++h) {
    const int8_t* src = x.qs + 128 * h;
    auto quarter = [&](int i) {
      return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 32 * i));
    };
    _mm512_store_si512(out->q[2 * h],
                       _mm512_inserti64x4(_mm512_castsi256_si512(quarter(0)), quarter(2), 1));
    _mm512_store_si512(out->q[2 * h + 1],
                       _mm512_inserti64x4(_mm512_castsi256_si512(quarter(1)), quarter(3), 1));
  }
  for (int i = 0; i < 8; ++i) {
    out->xd[i] = x.d;
    out->xd[8 + i] = -x.d;
  }
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x.bsums));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x.bsums + 8));
  _mm512_store_si512(out->pairs, _mm512_broadcast_i32x4(_mm_hadd_epi16(lo, hi)));
}

// Returns this thread's buffer with the n_blocks blocks of each of n_tokens tokens (token
// t's at x + t * x_stride) in GemvX order, token t's at t * n_blocks.
inline const GemvX* PackGemvX(const BlockQ8K* x, size_t x_stride, size_t n_tokens,
                              size_t n_blocks) {
  thread_local std::vector<GemvX> buffer;
  if (buffer.size() < n_tokens * n_blocks) buffer.resize(n_tokens * n_blocks);
  for (size_t t = 0; t < n_tokens; ++t) {
    for (size_t b = 0; b < n_blocks; ++b) PackGemvBlock(x[t * x_stride + b], &buffer[t * n_blocks + b]);
  }
  return buffer.data();
}

// The same for one token.
inline const GemvX* PackGemvX(const BlockQ8K* x, size_t n_blocks) {
  return PackGemvX(x, n_blocks, 1, n_blocks);
}

// UnpackQ4KScales (kernels/kquant/q4_k_scales.h) on four rows at once: headers as the tile's Headers returns them in, per
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

// A row's four vpdpbusd vectors against GemvX (vector 2h + n, n = 0: low nibbles, 1: high,
// covers sub-block 4h + n in lanes 0..7 and 4h + 2 + n in lanes 8..15) hold sums of four
// products, |sum| <= 4 * 31 * 128 (Q5_K; Q4_K 4 * 15 * 128), so each fits the low word of its int32 lane. vpermt2w
// with this control pairs the low words of vectors 2h and 2h + 1 lane by lane (word 2i
// from the first source, 2i + 1 from the second), and one vpdpwssd against the lanes'
// scale pairs adds the same integers as one vpdpwssd per vector would, with half the
// scale shuffles and vpdpwssd.
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

}  // namespace cpubrrr::scaled_min_gemv

#endif  // CPUBRRR_KERNELS_KQUANT_SCALED_MIN_GEMV_AVX512_INL_H_
