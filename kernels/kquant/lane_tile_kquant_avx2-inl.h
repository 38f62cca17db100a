// AVX2 Q4_K and Q5_K x Q8_K gemm with one weight row per int32 lane, in the scalar
// oracle's order; layouts supply where each row keeps a superblock's header and quants.
// Include from a translation unit compiled with AVX2, F16C and -ffp-contract=off.
//
// As in kernels/tiles/lane_tile_avx2-inl.h, lane i of a ymm holds four quants of row i
// (as bytes: 0..15, or 0..31 with Q5_K's fifth bit) and one vpmaddubsw against four
// broadcast activation bytes advances eight rows. A 32-value sub-block's vpmaddubsw results
// are summed in int16 while they cannot saturate (16 products of at most 15 * 128 for
// Q4_K, 8 of at most 31 * 128 for Q5_K), then vpmaddwd by the lane's scale pair gives
// scale * dot in int32; one vpmaddwd of the token's bsum pair by the lane's min pair per
// sub-block gives msum. The integer sums are the oracle's, so with its float step per
// superblock (x.d * (d * isum - dmin * msum)) every result is its bits.
//
// Compiled with AVX-VNNI (-mavxvnni), a sub-block takes eight vpdpbusd into int32 and one
// vpmulld by the lane's scale, and the mins one vpdpwssd: the same integer sums. The
// functions then live in their own inline namespace (as the lane tile's do). Either way
// each weight vector is loaded once per tile of tokens.
#ifndef CPUBRRR_KERNELS_KQUANT_LANE_TILE_KQUANT_AVX2_INL_H_
#define CPUBRRR_KERNELS_KQUANT_LANE_TILE_KQUANT_AVX2_INL_H_

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/prefetch.h"
#include "kernels/kquant/q4_k_scales.h"
#include "kernels/tiles/lane_tile_avx2-inl.h"
#include "kernels/tiles/token_tiles.h"
#include "quant/q4_k.h"
#include "quant/q5_k.h"
#include "quant/q8_k.h"

namespace cpubrrr::kquant_lanes_avx2 {
inline namespace CPUBRRR_AVX2_VARIANT_NAMESPACE {

using lane_tile_avx2::kPanelRows;
using lane_tile_avx2::BroadcastBytes4;

// One superblock of eight rows: q[8 * j + k] holds in lane i the values 32j + 4k ..
// 32j + 4k + 3 of row i (as bytes); sc[j] the lane's scale of sub-block j as the
// int16 pair (v, v) (with AVX-VNNI: as an int32) and mins[j] its min as the pair (v, v);
// d and dmin the lanes' float scales.
struct alignas(32) LaneSuper {
  __m256i q[64];
  __m256i sc[8];
  __m256i mins[8];
  __m256 d;
  __m256 dmin;
};

// Q5_K's header (d, dmin, the 12 scale bytes) is Q4_K's.
static_assert(offsetof(BlockQ5K, d) == offsetof(BlockQ4K, d) && offsetof(BlockQ5K, dmin) == offsetof(BlockQ4K, dmin) &&
              offsetof(BlockQ5K, scales) == offsetof(BlockQ4K, scales));

// Where row i of a panel keeps one superblock: its 16 header bytes (d, dmin, the 12 scale
// bytes, as at the start of a BlockQ4K), its 128 low-nibble bytes (BlockQ4K::qs) and, for
// Q5_K, its 32 fifth-bit bytes (BlockQ5K::qh; else null).
struct RowSuper {
  const uint8_t* header;
  const uint8_t* qs;
  const uint8_t* qh;
};

// Returns bit `bit` (0..7) of each byte of v moved to bit 4 (0x10), the rest zero. A 16-bit
// shift by at most 4 left or 3 right keeps each byte's bit 4 from its own byte.
__attribute__((always_inline)) inline __m256i BitToFifth(__m256i v, int bit) {
  const __m256i shifted = bit <= 4 ? _mm256_slli_epi16(v, 4 - bit) : _mm256_srli_epi16(v, bit - 4);
  return _mm256_and_si256(shifted, _mm256_set1_epi8(0x10));
}

// Decodes superblock `rows` (eight rows) into `out`; kBits 4 (Q4_K) or 5 (Q5_K).
template <int kBits>
inline void DecodeSuper(const RowSuper rows[kPanelRows], LaneSuper* out) {
  const __m256i low4 = _mm256_set1_epi8(0x0F);
#pragma GCC unroll 4
  for (int p = 0; p < 4; ++p) {  // quant bytes 32p..: sub-block 2p low, 2p + 1 high
    __m256i lo[kPanelRows], hi[kPanelRows];
#pragma GCC unroll 8
    for (int i = 0; i < kPanelRows; ++i) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[i].qs + 32 * p));
      lo[i] = _mm256_and_si256(v, low4);
      hi[i] = _mm256_and_si256(_mm256_srli_epi16(v, 4), low4);
      if constexpr (kBits == 5) {  // element e of sub-block j: bit j of qh[e]
        const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[i].qh));
        lo[i] = _mm256_or_si256(lo[i], BitToFifth(qh, 2 * p));
        hi[i] = _mm256_or_si256(hi[i], BitToFifth(qh, 2 * p + 1));
      }
    }
    lane_tile_avx2::Transpose8(lo, out->q + 8 * (2 * p));
    lane_tile_avx2::Transpose8(hi, out->q + 8 * (2 * p + 1));
  }
  alignas(32) int32_t sc[8][kPanelRows], mins[8][kPanelRows];
  alignas(16) uint16_t d[kPanelRows], dmin[kPanelRows];
  for (int i = 0; i < kPanelRows; ++i) {
    const Q4KScalesMins sm = UnpackQ4KScales(rows[i].header + offsetof(BlockQ4K, scales));
    for (int j = 0; j < 8; ++j) {
      const int32_t s = static_cast<int32_t>((sm.sc >> (8 * j)) & 0xFF);
      const int32_t m = static_cast<int32_t>((sm.m >> (8 * j)) & 0xFF);
#if defined(__AVXVNNI__)
      sc[j][i] = s;
#else
      sc[j][i] = s | (s << 16);
#endif
      mins[j][i] = m | (m << 16);
    }
    std::memcpy(&d[i], rows[i].header + offsetof(BlockQ4K, d), 2);
    std::memcpy(&dmin[i], rows[i].header + offsetof(BlockQ4K, dmin), 2);
  }
  for (int j = 0; j < 8; ++j) {
    out->sc[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(sc[j]));
    out->mins[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(mins[j]));
  }
  out->d = _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(d)));
  out->dmin = _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(dmin)));
}

// The three integer steps of SuperSums. A sub-block's products: with AVX-VNNI summed in
// int32 by vpdpbusd, else in int16 by vpmaddubsw (16 products of at most 15 * 128 each).
__attribute__((always_inline)) inline __m256i AddProducts(__m256i sum, __m256i w, __m256i x) {
#if defined(__AVXVNNI__)
  return _mm256_dpbusd_avx_epi32(sum, w, x);
#else
  return _mm256_add_epi16(sum, _mm256_maddubs_epi16(w, x));
#endif
}

// isum + scale * (a sub-block's products), the scale as LaneSuper::sc holds it.
__attribute__((always_inline)) inline __m256i AddScaled(__m256i isum, __m256i products, __m256i scale) {
#if defined(__AVXVNNI__)
  return _mm256_add_epi32(isum, _mm256_mullo_epi32(products, scale));
#else
  return _mm256_add_epi32(isum, _mm256_madd_epi16(products, scale));
#endif
}

// msum + the int16 pairs a * b summed by pairs.
__attribute__((always_inline)) inline __m256i AddPairProducts(__m256i msum, __m256i a, __m256i b) {
#if defined(__AVXVNNI__)
  return _mm256_dpwssd_avx_epi32(msum, a, b);
#else
  return _mm256_add_epi32(msum, _mm256_madd_epi16(a, b));
#endif
}

// Sets isum[t] and msum[t] to the oracle's integer sums of superblock s (eight rows)
// against T tokens' superblock xb[t]: sum_j sc_j * dot_j and sum_j m_j * bsum_j. With
// AVX-VNNI weights outer (each weight vector loaded once for the T tokens); without it
// token by token (the weights come from L1 again for each token, leaving the registers to
// the int16 sums, which measured faster; Q5_K's in two halves per sub-block).
template <int kBits, int T>
__attribute__((always_inline)) inline void SuperSums(const LaneSuper& s, const BlockQ8K* const xb[T], __m256i isum[T],
                                                     __m256i msum[T]) {
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) isum[t] = msum[t] = _mm256_setzero_si256();
#if !defined(__AVXVNNI__)
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) {
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
      constexpr int kPerSum = kBits == 4 ? 8 : 4;  // vpmaddubsw results an int16 sum can take
#pragma GCC unroll 2
      for (int k0 = 0; k0 < 8; k0 += kPerSum) {
        __m256i products = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int k = k0; k < k0 + kPerSum; ++k) {
          products = AddProducts(products, _mm256_load_si256(&s.q[8 * j + k]), BroadcastBytes4(xb[t]->qs + 32 * j + 4 * k));
        }
        isum[t] = AddScaled(isum[t], products, s.sc[j]);
      }
    }
  }
#else
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    __m256i products[T];
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) products[t] = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      const __m256i w = _mm256_load_si256(&s.q[8 * j + k]);
#pragma GCC unroll 4
      for (int t = 0; t < T; ++t) products[t] = AddProducts(products[t], w, BroadcastBytes4(xb[t]->qs + 32 * j + 4 * k));
    }
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) isum[t] = AddScaled(isum[t], products[t], s.sc[j]);
  }
#endif
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) {
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) msum[t] = AddPairProducts(msum[t], BroadcastBytes4(xb[t]->bsums + 2 * j), s.mins[j]);
  }
}

// Writes y[t * y_stride + i] for T tokens (token t's superblocks at x + t * x_stride) and the
// first n_rows rows of a decoded panel of n_blocks superblocks.
template <int kBits, int T>
void PanelTile(const LaneSuper* supers, size_t n_blocks, const BlockQ8K* x, size_t x_stride, float* y,
               size_t y_stride, int n_rows) {
  __m256 acc[T];
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) acc[t] = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const LaneSuper& s = supers[b];
    const BlockQ8K* xb[T];
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) xb[t] = &x[t * x_stride + b];
    __m256i isum[T], msum[T];
    SuperSums<kBits, T>(s, xb, isum, msum);
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) {
      const __m256 block = _mm256_mul_ps(
          _mm256_set1_ps(xb[t]->d), _mm256_sub_ps(_mm256_mul_ps(s.d, _mm256_cvtepi32_ps(isum[t])),
                                                  _mm256_mul_ps(s.dmin, _mm256_cvtepi32_ps(msum[t]))));
      acc[t] = _mm256_add_ps(acc[t], block);
    }
  }
  lane_tile_avx2::StoreRows<T>(acc, y, y_stride, n_rows);
}

// y[t * y_stride + p * kPanelRows + i] = dot(row i of panel p, token t), kBits-bit quants, for the
// rows_of(p) rows of each of n_panels panels, locate(p, b, rows) filling rows[i] with row
// i's superblock b (rows past the matrix may repeat a valid row: their lanes are never
// stored); token t's superblocks at x + t * x_stride.
template <int kBits, class Locate, class RowsOf>
void Gemm(size_t n_panels, size_t n_blocks, const BlockQ8K* x, size_t x_stride, size_t n_tokens, float* y,
          size_t y_stride, Locate locate, RowsOf rows_of) {
  thread_local std::vector<LaneSuper> panel;
  if (panel.size() < n_blocks) panel.resize(n_blocks);
  for (size_t p = 0; p < n_panels; ++p) {
    for (size_t b = 0; b < n_blocks; ++b) {
      RowSuper rows[kPanelRows];
      if (p + 1 < n_panels) {  // the next panel's superblock, which no prefetcher foresees
        locate(p + 1, b, rows);
        for (const RowSuper& row : rows) {
          PrefetchLine(row.header);
          PrefetchSpan<sizeof(BlockQ4K::qs)>(row.qs);
          if constexpr (kBits == 5) PrefetchSpan<sizeof(BlockQ5K::qh)>(row.qh);
        }
      }
      locate(p, b, rows);
      DecodeSuper<kBits>(rows, &panel[b]);
    }
    const int n_rows = rows_of(p);
    lane_tile_avx2::ForTokenTiles(n_tokens, [&](auto count, size_t t0) {
      PanelTile<kBits, decltype(count)::value>(panel.data(), n_blocks, x + t0 * x_stride, x_stride,
                                               y + t0 * y_stride + p * kPanelRows, y_stride, n_rows);
    });
  }
}

// Gemm over a matrix in the file's layout: rows of BlockQ4K or BlockQ5K superblocks,
// row_stride apart.
template <class Block>
void FileLayoutGemm(const Block* w, size_t row_stride, size_t rows, const BlockQ8K* x, size_t x_stride,
                    size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  constexpr int kBits = std::is_same_v<Block, BlockQ5K> ? 5 : 4;
  const lane_tile_avx2::RowPanels<Block> panels{w, row_stride, rows};
  auto locate = [&](size_t p, size_t b, RowSuper out[kPanelRows]) {
    for (int i = 0; i < kPanelRows; ++i) {
      const Block& block = panels.Row(p, i)[b];
      const uint8_t* qh = nullptr;
      if constexpr (kBits == 5) qh = block.qh;
      out[i] = {reinterpret_cast<const uint8_t*>(&block), block.qs, qh};
    }
  };
  Gemm<kBits>(panels.Count(), n_blocks, x, x_stride, n_tokens, y, y_stride, locate,
              [&](size_t p) { return panels.Rows(p); });
}

}  // namespace CPUBRRR_AVX2_VARIANT_NAMESPACE
}  // namespace cpubrrr::kquant_lanes_avx2

#endif  // CPUBRRR_KERNELS_KQUANT_LANE_TILE_KQUANT_AVX2_INL_H_
