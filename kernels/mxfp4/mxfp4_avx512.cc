// AVX-512 VNNI MXFP4 x Q8_0 gemv/gemm: two blocks per 512-bit register (nibble lookup
// with vpshufb, one vpdpbusd and one FMA per pair of blocks), activations packed once.
#include <immintrin.h>

#include <type_traits>
#include <vector>

#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"

namespace cpubrrr {
namespace {

// vpdpbusd multiplies unsigned by signed bytes, so the lookup yields each doubled E2M1
// value plus 128 (116..140); the packed activations carry -128 * sum(x) per lane, which
// seeds each dot.
alignas(64) constexpr uint8_t kCodePlus128[64] = {
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116,
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116,
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116,
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116};

// One token's activation blocks b and b + 1 (b even) in the lane order DecodePair
// produces: 128-bit lanes hold x_b[0:16], x_b+1[0:16], x_b[16:32], x_b+1[16:32]. A
// missing block b + 1 (odd block count) is all zeros, scale included.
struct alignas(64) PackedPair {
  int8_t q[64];
  int32_t neg_offset[16];  // -128 * the sum of the four x bytes of each int32 lane
  float d[16];             // the lane's block scale d_x
};

// Packs n_blocks Q8_0 blocks of one token into (n_blocks + 1) / 2 pairs.
void PackActivations(const BlockQ8_0* x, size_t n_blocks, PackedPair* out) {
  const __m512i offset = _mm512_set1_epi8(static_cast<char>(0x80));
  for (size_t b = 0; b < n_blocks; b += 2, ++out) {
    const BlockQ8_0& x0 = x[b];
    const bool has_next = b + 1 < n_blocks;
    const __m128i zero = _mm_setzero_si128();
    const __m128i lo0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x0.qs));
    const __m128i hi0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x0.qs + 16));
    const __m128i lo1 = has_next ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[b + 1].qs)) : zero;
    const __m128i hi1 = has_next ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[b + 1].qs + 16)) : zero;
    const __m256i first = _mm256_inserti128_si256(_mm256_castsi128_si256(lo0), lo1, 1);
    const __m256i second = _mm256_inserti128_si256(_mm256_castsi128_si256(hi0), hi1, 1);
    const __m512i q = _mm512_inserti64x4(_mm512_castsi256_si512(first), second, 1);
    _mm512_store_si512(out->q, q);
    _mm512_store_si512(out->neg_offset,
                       _mm512_sub_epi32(_mm512_setzero_si512(),
                                        _mm512_dpbusd_epi32(_mm512_setzero_si512(), offset, q)));
    const float d0 = _cvtsh_ss(x0.d), d1 = has_next ? _cvtsh_ss(x[b + 1].d) : 0.0f;
    _mm512_store_ps(out->d, _mm512_mask_blend_ps(0xF0F0, _mm512_set1_ps(d0), _mm512_set1_ps(d1)));
  }
}

// Returns the pair's 64 weights plus 128 as bytes, in PackedPair's lane order. With
// With `b1` null only `b0` is read and the second block's lanes hold code 0 (byte 128).
inline __m512i DecodePair(const BlockMxfp4& b0, const BlockMxfp4* b1, __m512i lut, __m512i low4) {
  const __m128i q0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b0.qs));
  const __m128i q1 = b1 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(b1->qs)) : _mm_setzero_si128();
  const __m256i q = _mm256_inserti128_si256(_mm256_castsi128_si256(q0), q1, 1);
  const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(q), _mm256_srli_epi16(q, 4), 1);
  return _mm512_shuffle_epi8(lut, _mm512_and_si512(both, low4));
}

// Returns 2^(e-128) of each lane's block: lanes of b1 (0xF0F0) take e1.
inline __m512 PairScale(uint8_t e0, uint8_t e1) {
  return _mm512_mask_blend_ps(0xF0F0, _mm512_set1_ps(kE8m0Half.v[e0]), _mm512_set1_ps(kE8m0Half.v[e1]));
}

// Computes the R x T tile y[t * y_stride + r] = dot(row r, token t): each weight pair is
// decoded once and used by T tokens, each packed activation pair loaded for R rows. Per
// pair and lane: an int32 partial dot, converted and added with one FMA scaled by
// 2^(e-128) * d_x; the 16 lanes are summed at the end.
// Block b of row r is w[r * row_step + b * block_step]: (row_stride, 1) for the contract's
// row-major layout, (1, R) for rows interleaved per block (RepackMxfp4Rows). x holds
// pairs_stride packed pairs per token.
// With prefetch_ahead != 0, each pair the tile prefetches each row's block prefetch_ahead
// blocks further on; row-major callers pass R * row_stride, the same position in the next
// R rows: a row is a short stream (1.5 KiB at d = 2880), too short for the hardware
// prefetcher to ramp up before it ends. Prefetches past the matrix end never fault.
// The loops over r < R and t < T are unrolled so the accumulators live in registers.
template <int R, int T>
void Tile(const BlockMxfp4* w, size_t row_step, size_t block_step, size_t prefetch_ahead,
          const PackedPair* x, size_t pairs_stride, size_t n_blocks, float* y, size_t y_stride) {
  const __m512i lut = _mm512_load_si512(kCodePlus128);
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  // Two accumulators per (row, token), for even and odd pairs, halve the FMA chain.
  __m512 acc[2][R][T];
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int t = 0; t < T; ++t) acc[0][r][t] = acc[1][r][t] = _mm512_setzero_ps();
  }
  auto step = [&](size_t b, auto chain) __attribute__((always_inline)) {
    const bool two = b + 1 < n_blocks;
    if (prefetch_ahead != 0) {
      #pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        const BlockMxfp4* ahead = w + r * row_step + b * block_step + prefetch_ahead;
        _mm_prefetch(reinterpret_cast<const char*>(ahead), _MM_HINT_T0);
      }
    }
    const PackedPair* xp = x + b / 2;
    #pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const BlockMxfp4& w0 = w[r * row_step + b * block_step];
      const BlockMxfp4* w1 = two ? &w0 + block_step : nullptr;
      const __m512i wq = DecodePair(w0, w1, lut, low4);
      const __m512 s = PairScale(w0.e, two ? w1->e : w0.e);
      #pragma GCC unroll 8
      for (int t = 0; t < T; ++t) {
        const PackedPair& p = xp[t * pairs_stride];
        const __m512i dot = _mm512_dpbusd_epi32(_mm512_load_si512(p.neg_offset), wq,
                                                _mm512_load_si512(p.q));
        acc[chain][r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot),
                                           _mm512_mul_ps(s, _mm512_load_ps(p.d)), acc[chain][r][t]);
      }
    }
  };
  size_t b = 0;
  for (; b + 4 <= n_blocks; b += 4) {
    step(b, std::integral_constant<int, 0>());
    step(b + 2, std::integral_constant<int, 1>());
  }
  if (b < n_blocks) step(b, std::integral_constant<int, 0>());
  if (b + 2 < n_blocks) step(b + 2, std::integral_constant<int, 1>());
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      y[t * y_stride + r] = _mm512_reduce_add_ps(_mm512_add_ps(acc[0][r][t], acc[1][r][t]));
    }
  }
}

// Runs Tile<R, T> over all rows in steps of R, finishing with smaller row tiles.
template <int R, int T>
void Rows(const BlockMxfp4* w, size_t row_stride, size_t rows, const PackedPair* x,
          size_t pairs_stride, size_t n_blocks, float* y, size_t y_stride) {
  size_t r = 0;
  for (; r + R <= rows; r += R) {
    Tile<R, T>(w + r * row_stride, row_stride, 1, R * row_stride, x, pairs_stride, n_blocks,
               y + r, y_stride);
  }
  if constexpr (R > 1) {
    Rows<R - 1, T>(w + r * row_stride, row_stride, rows - r, x, pairs_stride, n_blocks, y + r,
                   y_stride);
  }
}

// Row tile of the gemv: four rows share each packed activation load.
constexpr int kGemvRows = 4;
// Gemm tile: 2 rows x 4 tokens (8 accumulators; activations are memory operands).
constexpr int kGemmRows = 2;
constexpr int kGemmTokens = 4;

// Returns this thread's buffer of `n_tokens` tokens' packed pairs, packed from x.
const PackedPair* Pack(const BlockQ8_0* x, size_t x_stride, size_t n_tokens, size_t n_blocks,
                       size_t pairs) {
  thread_local std::vector<PackedPair> buffer;
  if (buffer.size() < n_tokens * pairs) buffer.resize(n_tokens * pairs);
  for (size_t t = 0; t < n_tokens; ++t) PackActivations(x + t * x_stride, n_blocks, &buffer[t * pairs]);
  return buffer.data();
}

}  // namespace

void GemvMxfp4Avx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t n_blocks, float* y) {
  const size_t pairs = (n_blocks + 1) / 2;
  const PackedPair* xp = Pack(x, 0, 1, n_blocks, pairs);
  Rows<kGemvRows, 1>(w, row_stride, rows, xp, 0, n_blocks, y, 0);
}

void GemmMxfp4Avx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                     const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                     size_t n_blocks, float* y, size_t y_stride) {
  const size_t pairs = (n_blocks + 1) / 2;
  const PackedPair* xp = Pack(x, x_stride, n_tokens, n_blocks, pairs);
  size_t t = 0;
  for (; t + kGemmTokens <= n_tokens; t += kGemmTokens) {
    Rows<kGemmRows, kGemmTokens>(w, row_stride, rows, xp + t * pairs, pairs, n_blocks,
                                 y + t * y_stride, y_stride);
  }
  const PackedPair* xt = xp + t * pairs;
  float* yt = y + t * y_stride;
  switch (n_tokens - t) {
    case 3: Rows<kGemmRows, 3>(w, row_stride, rows, xt, pairs, n_blocks, yt, y_stride); break;
    case 2: Rows<kGemmRows, 2>(w, row_stride, rows, xt, pairs, n_blocks, yt, y_stride); break;
    case 1: Rows<kGemvRows, 1>(w, row_stride, rows, xt, pairs, n_blocks, yt, y_stride); break;
    default: break;
  }
}

void GemvMxfp4RepackedAvx512(const BlockMxfp4* packed, size_t rows, const BlockQ8_0* x,
                             size_t n_blocks, float* y) {
  constexpr int R = kMxfp4RepackRows;
  const size_t group_blocks = R * n_blocks;
  const PackedPair* xp = Pack(x, 0, 1, n_blocks, (n_blocks + 1) / 2);
  size_t r = 0;
  for (; r + R <= rows; r += R, packed += group_blocks) {
    Tile<R, 1>(packed, 1, R, 0, xp, 0, n_blocks, y + r, 0);
  }
  if (r < rows) {
    float tail[R];
    Tile<R, 1>(packed, 1, R, 0, xp, 0, n_blocks, tail, 0);
    for (size_t i = 0; r + i < rows; ++i) y[r + i] = tail[i];
  }
}

}  // namespace cpubrrr
