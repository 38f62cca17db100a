// AVX2 MXFP4 x Q8_0 gemm of several tokens on the repacked layout
// (kernels/mxfp4/mxfp4_repacked.h): the AVX2 lane tile (kernels/tiles/lane_tile_avx2-inl.h)
// with a decoder of two repacked groups per 8-row panel, so results are the oracle's bit
// for bit. Built twice: Mxfp4RepackedLaneGemmAvx2 and, with AVX-VNNI,
// Mxfp4RepackedLaneGemmAvxVnni.
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/prefetch.h"
#include "kernels/mxfp4/code_plus12.h"
#include "kernels/mxfp4/e8m0_avx2-inl.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "kernels/tiles/lane_tile_avx2-inl.h"

namespace cpubrrr {
namespace {

using lane_tile_avx2::GroupPanels;
using lane_tile_avx2::LaneBlock;
using Shape = Mxfp4RepackedShape;

// Decodes pair p of the eight rows of two repacked groups (lane i: row i % 4 of group
// i / 4) into the LaneBlocks of blocks 2p (*even) and, when `two`, 2p + 1 (*odd).
__attribute__((always_inline)) inline void DecodePair(const uint8_t* const group[2], size_t p, bool two,
                                                      LaneBlock* even, LaneBlock* odd) {
  const __m256i lut = _mm256_load_si256(reinterpret_cast<const __m256i*>(kMxfp4CodePlus12));
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  // firsts[i]: row i's values 0-15 of both blocks (dwords 0-3 block 2p, 4-7 block 2p + 1);
  // seconds[i]: its values 16-31 likewise.
  __m256i firsts[8], seconds[8];
#pragma GCC unroll 2
  for (int g = 0; g < 2; ++g) {
#pragma GCC unroll 2
    for (int v = 0; v < 2; ++v) {  // rows 2v and 2v + 1 of the group
      const uint8_t* codes = group[g] + Shape::QuantOffset(p) + 64 * v;
      const __m256i a = _mm256_load_si256(reinterpret_cast<const __m256i*>(codes));
      const __m256i b = _mm256_load_si256(reinterpret_cast<const __m256i*>(codes + 32));
      const int lane = 4 * g + 2 * v;
      firsts[lane] = _mm256_shuffle_epi8(lut, _mm256_and_si256(a, low4));
      seconds[lane] = _mm256_shuffle_epi8(lut, _mm256_and_si256(b, low4));
      firsts[lane + 1] = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(a, 4), low4));
      seconds[lane + 1] = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(b, 4), low4));
    }
  }
  __m256i lows[8], highs[8];
  lane_tile_avx2::Transpose8(firsts, lows);
  lane_tile_avx2::Transpose8(seconds, highs);
  // Exponent bytes 2r + j of a group: row r, block 2p + j; evens first, then odds.
  const __m128i exponents = _mm_unpacklo_epi64(
      _mm_loadl_epi64(reinterpret_cast<const __m128i*>(group[0] + Shape::ScaleOffset(p))),
      _mm_loadl_epi64(reinterpret_cast<const __m128i*>(group[1] + Shape::ScaleOffset(p))));
  const __m128i by_block =
      _mm_shuffle_epi8(exponents, _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    even->q[k] = lows[k];
    even->q[4 + k] = highs[k];
  }
  even->d = avx2::E8m0HalfLanes(_mm256_cvtepu8_epi32(by_block));
  if (two) {
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      odd->q[k] = lows[4 + k];
      odd->q[4 + k] = highs[4 + k];
    }
    odd->d = avx2::E8m0HalfLanes(_mm256_cvtepu8_epi32(_mm_srli_si128(by_block, 8)));
  }
}

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Mxfp4RepackedLaneGemm)(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                                                      size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                                                      size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  constexpr size_t kPanelGroups = GroupPanels::kGroups;
  const GroupPanels panels{group_begin, GroupRangeEnd(shape, group_begin, n_groups), shape.rows};
  if (panels.end <= panels.begin) return;
  const size_t group_bytes = shape.GroupBytes();
  // Each pair prefetches the same pair of the next panel, which no prefetcher foresees.
  auto decode = [&](size_t p, LaneBlock* out) {
    const uint8_t* group[kPanelGroups] = {packed + panels.Group(p, 0) * group_bytes,
                                          packed + panels.Group(p, 1) * group_bytes};
    for (size_t u = 0; u < shape.Units(); ++u) {
      if (panels.HasNext(p)) {
        for (size_t g = 0; g < kPanelGroups; ++g) {
          const uint8_t* ahead = group[0] + (kPanelGroups + g) * group_bytes;
          if (u % kRepackedChunkUnits == 0) PrefetchLine(ahead + Shape::ScaleOffset(u));
          PrefetchLine(ahead + Shape::QuantOffset(u));  // a unit: two whole lines
          PrefetchLine(ahead + Shape::QuantOffset(u) + 64);
        }
      }
      DecodePair(group, u, 2 * u + 1 < shape.n_blocks, &out[2 * u], &out[2 * u + 1]);
    }
  };
  lane_tile_avx2::Gemm(panels.Count(), shape.n_blocks, kMxfp4CodeOffset, x, x_stride, n_tokens, y, y_stride, decode,
                       [&](size_t p) { return panels.Rows(p); });
}

}  // namespace cpubrrr
