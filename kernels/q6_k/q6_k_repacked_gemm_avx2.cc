// AVX2 Q6_K x Q8_K gemm of several tokens on the repacked layout
// (kernels/q6_k/q6_k_repacked.h) with one weight row per int32 lane, as the Q4_K AVX2 lane
// tile (kernels/kquant/lane_tile_kquant_avx2-inl.h) does: two groups decode into an 8-row
// panel once per call, then per 16-value sub-block two pairs of vpmaddubsw summed in int16
// (four products of at most 63 * 128 each), vpmaddwd by the lane's scale pair, and the -32
// offset as vpmaddwd of the token's bsum pairs by the lane's scale pairs. Built with
// AVX-VNNI (Q6KRepackedLaneGemmAvxVnni), a sub-block takes four vpdpbusd into int32 and a
// vpmulld by its scale, the offset vpdpwssd, each weight vector loaded once per token tile.
// The integer sums and the float step are the oracle's, so every result is its bits.
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/prefetch.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "kernels/tiles/lane_tile_avx2-inl.h"
#include "kernels/tiles/token_tiles.h"

namespace cpubrrr {
namespace {

using lane_tile_avx2::kPanelRows;
using lane_tile_avx2::BroadcastBytes4;
using lane_tile_avx2::GroupPanels;
using Shape = Q6KRepackedShape;

constexpr size_t kPanelGroups = GroupPanels::kGroups;
constexpr size_t kRowBytes = 192;  // a row's A, B and C vectors in a unit

// One superblock of eight rows: q[n] holds in lane i the quants 4n .. 4n + 3 of row i
// (0..63 as bytes); sc[s] the lane's scale of sub-block s as the int16 pair (v, v) (with
// AVX-VNNI: as an int32);
// sc_pairs[p] its scales 2p and 2p + 1 as an int16 pair; d its float scale.
struct alignas(32) LaneSuper {
  __m256i q[64];
  __m256i sc[16];
  __m256i sc_pairs[8];
  __m256 d;
};

// Decodes superblock b of the panel whose groups start at group[0], group[1].
void DecodeSuper(const uint8_t* const group[kPanelGroups], size_t b, LaneSuper* out) {
  const __m256i low6 = _mm256_set1_epi8(0x3F), top2 = _mm256_set1_epi8(0x03);
  const __m256i bits23 = _mm256_set1_epi8(0x0C), bits45 = _mm256_set1_epi8(0x30);
  alignas(32) int32_t sc[16][kPanelRows], sc_pairs[8][kPanelRows];
  alignas(16) uint16_t d[kPanelRows];
#pragma GCC unroll 2
  for (int h = 0; h < 2; ++h) {  // values 32h.. of each 64-value range
    // v[j][i]: row i's quants 64j + 32h .. 64j + 32h + 31 (j = 3: from the top bits).
    __m256i v[4][kPanelRows];
    for (size_t g = 0; g < kPanelGroups; ++g) {
      const uint8_t* unit = group[g] + Shape::QuantOffset(b);
      for (size_t rr = 0; rr < kRepackedRows; ++rr) {
        const uint8_t* a = unit + 64 + kRowBytes * rr + 32 * h;
        const __m256i va = _mm256_load_si256(reinterpret_cast<const __m256i*>(a));
        const __m256i vb = _mm256_load_si256(reinterpret_cast<const __m256i*>(a + 64));
        const __m256i vc = _mm256_load_si256(reinterpret_cast<const __m256i*>(a + 128));
        const size_t i = g * kRepackedRows + rr;
        v[0][i] = _mm256_and_si256(va, low6);
        v[1][i] = _mm256_and_si256(vb, low6);
        v[2][i] = _mm256_and_si256(vc, low6);
        v[3][i] = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(va, 6), top2),
                            _mm256_and_si256(_mm256_srli_epi16(vb, 4), bits23)),
            _mm256_and_si256(_mm256_srli_epi16(vc, 2), bits45));
      }
    }
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) lane_tile_avx2::Transpose8(v[j], out->q + 16 * j + 8 * h);
  }
  for (size_t g = 0; g < kPanelGroups; ++g) {
    const uint8_t* unit = group[g] + Shape::QuantOffset(b);
    uint16_t group_d[kRepackedRows];
    std::memcpy(group_d, group[g] + Shape::ScaleOffset(b), sizeof(group_d));
    for (size_t rr = 0; rr < kRepackedRows; ++rr) {
      const size_t i = g * kRepackedRows + rr;
      const int8_t* scales = reinterpret_cast<const int8_t*>(unit + 16 * rr);
      for (int s = 0; s < 16; ++s) {
#if defined(__AVXVNNI__)
        sc[s][i] = scales[s];
#else
        const uint32_t v = static_cast<uint16_t>(scales[s]);
        sc[s][i] = static_cast<int32_t>(v | (v << 16));
#endif
      }
      for (int p = 0; p < 8; ++p) {
        sc_pairs[p][i] = static_cast<int32_t>(static_cast<uint16_t>(scales[2 * p]) |
                                              (uint32_t{static_cast<uint16_t>(scales[2 * p + 1])} << 16));
      }
      d[i] = group_d[rr];
    }
  }
  for (int s = 0; s < 16; ++s) out->sc[s] = _mm256_load_si256(reinterpret_cast<const __m256i*>(sc[s]));
  for (int p = 0; p < 8; ++p) out->sc_pairs[p] = _mm256_load_si256(reinterpret_cast<const __m256i*>(sc_pairs[p]));
  out->d = _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(d)));
}

// Writes y[t * y_stride + i] for T tokens (token t's superblocks at x + t * x_stride) and
// the first n_rows rows of a decoded panel.
template <int T>
void PanelTile(const LaneSuper* supers, size_t n_blocks, const BlockQ8K* x, size_t x_stride, float* y,
               size_t y_stride, int n_rows) {
  __m256 acc[T];
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) acc[t] = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const LaneSuper& s = supers[b];
#if defined(__AVXVNNI__)
    // Weights outer: each weight vector loaded once for the T tokens.
    __m256i isum[T];
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) isum[t] = _mm256_setzero_si256();
#pragma GCC unroll 16
    for (int sub = 0; sub < 16; ++sub) {
      __m256i dot[T];
#pragma GCC unroll 4
      for (int t = 0; t < T; ++t) dot[t] = _mm256_setzero_si256();
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) {
        const __m256i w = _mm256_load_si256(&s.q[4 * sub + k]);
#pragma GCC unroll 4
        for (int t = 0; t < T; ++t) {
          dot[t] = _mm256_dpbusd_avx_epi32(dot[t], w, BroadcastBytes4(x[t * x_stride + b].qs + 16 * sub + 4 * k));
        }
      }
#pragma GCC unroll 4
      for (int t = 0; t < T; ++t) isum[t] = _mm256_add_epi32(isum[t], _mm256_mullo_epi32(dot[t], s.sc[sub]));
    }
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) {
      const BlockQ8K& xb = x[t * x_stride + b];
      __m256i offset = _mm256_setzero_si256();
#pragma GCC unroll 8
      for (int p = 0; p < 8; ++p) offset = _mm256_dpwssd_avx_epi32(offset, BroadcastBytes4(xb.bsums + 2 * p), s.sc_pairs[p]);
      const __m256i sum = _mm256_sub_epi32(isum[t], _mm256_slli_epi32(offset, 5));
      acc[t] = _mm256_add_ps(acc[t], _mm256_mul_ps(_mm256_set1_ps(xb.d), _mm256_mul_ps(s.d, _mm256_cvtepi32_ps(sum))));
    }
#else
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) {
      const BlockQ8K& xb = x[t * x_stride + b];
      __m256i isum = _mm256_setzero_si256(), offset = _mm256_setzero_si256();
#pragma GCC unroll 16
      for (int sub = 0; sub < 16; ++sub) {
#pragma GCC unroll 2
        for (int half = 0; half < 2; ++half) {  // values 16 sub + 8 half .. + 7
          const int n = 4 * sub + 2 * half;
          const __m256i pairs =
              _mm256_add_epi16(_mm256_maddubs_epi16(_mm256_load_si256(&s.q[n]), BroadcastBytes4(xb.qs + 4 * n)),
                               _mm256_maddubs_epi16(_mm256_load_si256(&s.q[n + 1]), BroadcastBytes4(xb.qs + 4 * n + 4)));
          isum = _mm256_add_epi32(isum, _mm256_madd_epi16(pairs, s.sc[sub]));
        }
      }
#pragma GCC unroll 8
      for (int p = 0; p < 8; ++p) {
        offset = _mm256_add_epi32(offset, _mm256_madd_epi16(BroadcastBytes4(xb.bsums + 2 * p), s.sc_pairs[p]));
      }
      isum = _mm256_sub_epi32(isum, _mm256_slli_epi32(offset, 5));
      acc[t] = _mm256_add_ps(acc[t],
                             _mm256_mul_ps(_mm256_set1_ps(xb.d), _mm256_mul_ps(s.d, _mm256_cvtepi32_ps(isum))));
    }
#endif
  }
  lane_tile_avx2::StoreRows<T>(acc, y, y_stride, n_rows);
}

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Q6KRepackedLaneGemm)(const uint8_t* packed, const Q6KRepackedShape& shape,
                                                    size_t group_begin, size_t n_groups, const BlockQ8K* x,
                                                    size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  const GroupPanels panels{group_begin, GroupRangeEnd(shape, group_begin, n_groups), shape.rows};
  if (panels.end <= panels.begin) return;
  const size_t group_bytes = shape.GroupBytes();
  thread_local std::vector<LaneSuper> panel;
  if (panel.size() < shape.n_blocks) panel.resize(shape.n_blocks);
  for (size_t p = 0; p < panels.Count(); ++p) {
    const uint8_t* group[kPanelGroups] = {packed + panels.Group(p, 0) * group_bytes,
                                          packed + panels.Group(p, 1) * group_bytes};
    for (size_t b = 0; b < shape.n_blocks; ++b) {
      if (panels.HasNext(p)) {  // the next panel's superblock, which no prefetcher foresees
        for (size_t g = 0; g < kPanelGroups; ++g) {
          const uint8_t* ahead = group[0] + (kPanelGroups + g) * group_bytes;
          if (b % kRepackedChunkUnits == 0) PrefetchLine(ahead + Shape::ScaleOffset(b));
          PrefetchSpan<832>(ahead + Shape::QuantOffset(b));
        }
      }
      DecodeSuper(group, b, &panel[b]);
    }
    lane_tile_avx2::ForTokenTiles(n_tokens, [&](auto count, size_t t0) {
      PanelTile<decltype(count)::value>(panel.data(), shape.n_blocks, x + t0 * x_stride, x_stride,
                                        y + t0 * y_stride + p * kPanelRows, y_stride, panels.Rows(p));
    });
  }
}

}  // namespace cpubrrr
