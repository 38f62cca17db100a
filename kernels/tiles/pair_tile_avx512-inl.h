// AVX-512 VNNI gemv tiles over pairs of 32-value weight blocks against Q8_0 activations
// packed once per call, in ggml's x86 order; MXFP4 and Q8_0 supply how a weight pair
// decodes. (Their gemms are lane tiles: kernels/tiles/lane_tile_avx512-inl.h.)
// Include from a translation unit compiled with AVX-512 F/BW/VL/VNNI, FMA and F16C.
#ifndef CPUBRRR_KERNELS_TILES_PAIR_TILE_AVX512_INL_H_
#define CPUBRRR_KERNELS_TILES_PAIR_TILE_AVX512_INL_H_

#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/common/prefetch.h"
#include "quant/q8_0.h"

namespace cpubrrr::pair_tile {

// Where a pair's 64 values sit in a 512-bit register: kBlocks puts block b in the low
// 256 bits and b + 1 in the high; kHalves puts the 128-bit lanes in the order b[0:16],
// b+1[0:16], b[16:32], b+1[16:32] (what MXFP4's low and high nibbles give cheaply).
enum class LaneOrder { kBlocks, kHalves };

// Lanes (of 16 floats) that belong to block b + 1.
constexpr __mmask16 SecondBlockLanes(LaneOrder order) {
  return order == LaneOrder::kBlocks ? 0xFF00 : 0xF0F0;
}

// One token's activation blocks b and b + 1 (b even) in a LaneOrder. A missing block
// b + 1 (odd block count) is all zeros, scale included, so it adds exactly 0.
struct alignas(64) PackedPair {
  int8_t q[64];
  int32_t neg_offset[16];  // -128 * the sum of the four x bytes of each int32 lane
  float d[16];             // the lane's block scale d_x
};

// Packs n_blocks Q8_0 blocks of one token into (n_blocks + 1) / 2 pairs.
template <LaneOrder kOrder>
void PackActivations(const BlockQ8_0* x, size_t n_blocks, PackedPair* out) {
  const __m512i offset = _mm512_set1_epi8(static_cast<char>(0x80));
  for (size_t b = 0; b < n_blocks; b += 2, ++out) {
    const BlockQ8_0& x0 = x[b];
    const bool has_next = b + 1 < n_blocks;
    const __m256i q0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x0.qs));
    const __m256i q1 = has_next ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b + 1].qs))
                                : _mm256_setzero_si256();
    __m512i q;
    if constexpr (kOrder == LaneOrder::kBlocks) {
      q = _mm512_inserti64x4(_mm512_castsi256_si512(q0), q1, 1);
    } else {
      const __m256i lows = _mm256_permute2x128_si256(q0, q1, 0x20);
      const __m256i highs = _mm256_permute2x128_si256(q0, q1, 0x31);
      q = _mm512_inserti64x4(_mm512_castsi256_si512(lows), highs, 1);
    }
    _mm512_store_si512(out->q, q);
    _mm512_store_si512(out->neg_offset,
                       _mm512_sub_epi32(_mm512_setzero_si512(),
                                        _mm512_dpbusd_epi32(_mm512_setzero_si512(), offset, q)));
    const float d0 = _cvtsh_ss(x0.d), d1 = has_next ? _cvtsh_ss(x[b + 1].d) : 0.0f;
    _mm512_store_ps(out->d, _mm512_mask_blend_ps(SecondBlockLanes(kOrder), _mm512_set1_ps(d0),
                                                 _mm512_set1_ps(d1)));
  }
}

// Returns this thread's buffer holding n_tokens tokens' packed pairs (`pairs` per token).
template <LaneOrder kOrder>
const PackedPair* Pack(const BlockQ8_0* x, size_t x_stride, size_t n_tokens, size_t n_blocks,
                       size_t pairs) {
  thread_local std::vector<PackedPair> buffer;
  if (buffer.size() < n_tokens * pairs) buffer.resize(n_tokens * pairs);
  for (size_t t = 0; t < n_tokens; ++t) {
    PackActivations<kOrder>(x + t * x_stride, n_blocks, &buffer[t * pairs]);
  }
  return buffer.data();
}

// How a decoder's per-(row, token) float sums run; each reproduces the order of one of
// ggml's x86 vec_dot kernels (llama.cpp without weight repacking), so that our results
// carry llama.cpp's bits (docs/MODELS.md, Numerics):
//   kOneChain8: one chain of 8 lanes (lane l: the four values 4l..4l+3 of a block), one
//     fused multiply-add per block in block order (ggml_vec_dot_q8_0_q8_0);
//   kEvenOdd8: two such chains, even and odd blocks, added lane by lane at the end; an
//     odd last block is added after the lanes are summed, as one scalar fused
//     multiply-add of its whole int32 dot (ggml_vec_dot_mxfp4_q8_0).
// Both then sum the 8 lanes as ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7)).
enum class Accumulation { kOneChain8, kEvenOdd8 };

// Sums 8 lanes (lo = lanes 0..3, hi = lanes 4..7) in the order above.
inline float SumLanes8(__m128 lo, __m128 hi) {
  __m128 r = _mm_add_ps(hi, lo);
  r = _mm_add_ps(r, _mm_movehl_ps(r, r));
  r = _mm_add_ss(r, _mm_movehdup_ps(r));
  return _mm_cvtss_f32(r);
}

inline __m256 HighHalf(__m512 v) {
  return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

// Computes the R x T tile y[t * y_stride + r] = dot(row r, token t) with a Decoder:
//   Decoder::Block, Decoder::kOrder, Decoder::kAccumulation, Decoder::kPrefetchThrice, and
//   members Weights(b0, b1) (the pair's 64 weights plus 128 as unsigned bytes in kOrder; b1
//   null for a lone last block, whose lanes must be byte 128), Scale(b0, b1) (the weight
//   scale of each float lane) and BlockScale(b) (block b's weight scale as one float).
// Each weight pair is decoded once for T tokens; each packed activation pair is loaded for
// R rows. Per pair and lane: an int32 partial dot seeded with -128 * sum(x), converted and
// scaled by d_w * d_x into the accumulators of kAccumulation. kEvenOdd8 (with kHalves,
// where the even block of a pair fills lanes 0-3 and 8-11) takes one 16-lane fused
// multiply-add per pair; kOneChain8 (kBlocks) two 8-lane ones in block order. The order of
// float operations per (row, token) does not depend on R or T (the gemv uses T = 1).
// Block b of row r is w[r * row_stride + b]. x holds pairs_stride packed pairs
// per token. With prefetch_ahead != 0, each pair the tile prefetches each row's block
// prefetch_ahead blocks further on (with Decoder::kPrefetchThrice, again half and a
// quarter as far: PrefetchSpanThrice); row-major callers pass R * row_stride, the same
// position in the next R rows (a row is too short a stream for the hardware prefetcher to
// ramp up). Prefetches past the matrix end never fault.
template <class Decoder, int R, int T>
void Tile(const typename Decoder::Block* w, size_t row_stride, size_t prefetch_ahead,
          const PackedPair* x, size_t pairs_stride, size_t n_blocks, float* y, size_t y_stride) {
  using Block = typename Decoder::Block;
  constexpr bool kOneChain = Decoder::kAccumulation == Accumulation::kOneChain8;
  static_assert(kOneChain == (Decoder::kOrder == LaneOrder::kBlocks),
                "kOneChain8 needs block b in lanes 0-7, kEvenOdd8 the kHalves order");
  const Decoder decoder;
  const Block* row[R];
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) row[r] = w + r * row_stride;
  using Acc = std::conditional_t<kOneChain, __m256, __m512>;
  Acc acc[R][T];
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      if constexpr (kOneChain) {
        acc[r][t] = _mm256_setzero_ps();
      } else {
        acc[r][t] = _mm512_setzero_ps();
      }
    }
  }
  // One pair at block b; `two` is false for a lone last block (kOneChain8 only).
  auto step = [&](size_t b, auto two) __attribute__((always_inline)) {
    if (prefetch_ahead != 0) {
      #pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        // A pair spans more than a line for Q8_0 (68 bytes): one prefetch per 64 bytes.
        if constexpr (Decoder::kPrefetchThrice) {
          PrefetchSpanThrice<2 * sizeof(Block)>(row[r] + b, prefetch_ahead * sizeof(Block));
        } else {
          PrefetchSpan<2 * sizeof(Block)>(row[r] + b + prefetch_ahead);
        }
      }
    }
    const PackedPair* xp = x + b / 2;
    #pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const Block& w0 = row[r][b];
      const Block* w1 = two ? &w0 + 1 : nullptr;
      const __m512i wq = decoder.Weights(w0, w1);
      const __m512 s = decoder.Scale(w0, w1);
      #pragma GCC unroll 8
      for (int t = 0; t < T; ++t) {
        const PackedPair& p = xp[t * pairs_stride];
        const __m512i dot = _mm512_dpbusd_epi32(_mm512_load_si512(p.neg_offset), wq,
                                                _mm512_load_si512(p.q));
        const __m512 f = _mm512_cvtepi32_ps(dot);
        const __m512 scale = _mm512_mul_ps(s, _mm512_load_ps(p.d));
        if constexpr (kOneChain) {
          acc[r][t] = _mm256_fmadd_ps(_mm512_castps512_ps256(f), _mm512_castps512_ps256(scale),
                                      acc[r][t]);
          if (two) acc[r][t] = _mm256_fmadd_ps(HighHalf(f), HighHalf(scale), acc[r][t]);
        } else {
          acc[r][t] = _mm512_fmadd_ps(f, scale, acc[r][t]);
        }
      }
    }
  };
  size_t b = 0;
  // Two pairs per iteration: one pair per iteration read the cold MXFP4 gemv far slower
  // (same instructions otherwise; cause not found; research log).
  for (; b + 4 <= n_blocks; b += 4) {
    step(b, std::true_type());
    step(b + 2, std::true_type());
  }
  for (; b + 2 <= n_blocks; b += 2) step(b, std::true_type());
  if constexpr (kOneChain) {
    if (b < n_blocks) step(b, std::false_type());
    #pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      #pragma GCC unroll 8
      for (int t = 0; t < T; ++t) {
        y[t * y_stride + r] = SumLanes8(_mm256_castps256_ps128(acc[r][t]),
                                        _mm256_extractf128_ps(acc[r][t], 1));
      }
    }
  } else {
    const bool lone = b < n_blocks;
    #pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      #pragma GCC unroll 8
      for (int t = 0; t < T; ++t) {
        // Even + odd chain: lanes 0-3 + 4-7 and 8-11 + 12-15.
        const __m512 a = acc[r][t];
        const __m512 sum = _mm512_add_ps(a, _mm512_shuffle_f32x4(a, a, _MM_SHUFFLE(2, 3, 0, 1)));
        float total = SumLanes8(_mm512_castps512_ps128(sum), _mm512_extractf32x4_ps(sum, 2));
        if (lone) {
          const Block& w0 = row[r][b];
          const PackedPair& p = x[b / 2 + t * pairs_stride];
          const int32_t isum = _mm512_reduce_add_epi32(_mm512_dpbusd_epi32(
              _mm512_load_si512(p.neg_offset), decoder.Weights(w0, nullptr),
              _mm512_load_si512(p.q)));
          const float d = decoder.BlockScale(w0) * p.d[0];
          total = std::fma(d, static_cast<float>(isum), total);
        }
        y[t * y_stride + r] = total;
      }
    }
  }
}

// Runs Tile<R, T> over row-major rows in steps of R, finishing with smaller row tiles.
template <class Decoder, int R, int T>
void Rows(const typename Decoder::Block* w, size_t row_stride, size_t rows, const PackedPair* x,
          size_t pairs_stride, size_t n_blocks, float* y, size_t y_stride) {
  size_t r = 0;
  for (; r + R <= rows; r += R) {
    Tile<Decoder, R, T>(w + r * row_stride, row_stride, R * row_stride, x, pairs_stride,
                        n_blocks, y + r, y_stride);
  }
  if constexpr (R > 1) {
    Rows<Decoder, R - 1, T>(w + r * row_stride, row_stride, rows - r, x, pairs_stride, n_blocks,
                            y + r, y_stride);
  }
}

// Row tile of the gemv: four rows share each packed activation load.
inline constexpr int kGemvRows = 4;
// The gemv of the kernel contracts: y[r] = dot(row r, x) for r < rows.
template <class Decoder>
void Gemv(const typename Decoder::Block* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
          size_t n_blocks, float* y) {
  const PackedPair* xp = Pack<Decoder::kOrder>(x, 0, 1, n_blocks, (n_blocks + 1) / 2);
  Rows<Decoder, kGemvRows, 1>(w, row_stride, rows, xp, 0, n_blocks, y, 0);
}

// Rows<R = kGemvRows, T> for T = n_tokens, one of 1..kMaxT.
template <class Decoder, int kMaxT>
void RowsOfTokens(const typename Decoder::Block* w, size_t row_stride, size_t rows,
                  const PackedPair* x, size_t pairs_stride, size_t n_tokens, size_t n_blocks,
                  float* y, size_t y_stride) {
  if (n_tokens == kMaxT) {
    Rows<Decoder, kGemvRows, kMaxT>(w, row_stride, rows, x, pairs_stride, n_blocks, y, y_stride);
  } else if constexpr (kMaxT > 1) {
    RowsOfTokens<Decoder, kMaxT - 1>(w, row_stride, rows, x, pairs_stride, n_tokens, n_blocks, y,
                                     y_stride);
  }
}

// The gemm of n_tokens <= kMaxT tokens on the gemv's tile: each weight pair is decoded once
// for all of them, and each token's results are the gemv's bits. x_stride blocks between
// tokens, y_stride floats between result rows.
template <class Decoder, int kMaxT>
void FewTokens(const typename Decoder::Block* w, size_t row_stride, size_t rows,
               const BlockQ8_0* x, size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
               size_t y_stride) {
  const size_t pairs = (n_blocks + 1) / 2;
  const PackedPair* xp = Pack<Decoder::kOrder>(x, x_stride, n_tokens, n_blocks, pairs);
  RowsOfTokens<Decoder, kMaxT>(w, row_stride, rows, xp, pairs, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr::pair_tile

#endif  // CPUBRRR_KERNELS_TILES_PAIR_TILE_AVX512_INL_H_
