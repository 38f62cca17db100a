// AVX-512 VNNI MXFP4 x Q8_0 gemm of several tokens on the repacked layout
// (kernels/mxfp4/mxfp4_repacked.h): the repacked lane tile (kernels/tiles/repacked_lane_tile_avx512-inl.h) with an MXFP4
// pair decoder, so results are the oracle's bit for bit.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/tiles/repacked_lane_tile_avx512-inl.h"
#include "kernels/mxfp4/code_plus128.h"
#include "kernels/mxfp4/e8m0_avx512-inl.h"
#include "kernels/mxfp4/mxfp4_repacked.h"

namespace cpubrrr {
namespace {

using lane_tile::kLaneGroupGroups;
using lane_tile::LaneBlock;
using Shape = Mxfp4RepackedShape;

// Decodes pair p of the 16 rows of four repacked groups (group[G]) into LaneBlocks for
// blocks 2p (*even) and 2p + 1 (*odd, when `two`). Lane i holds row kLaneRow[i], which
// is row i / 4 of group i % 4.
__attribute__((always_inline)) inline void DecodePair(const uint8_t* const group[kLaneGroupGroups],
                                                      size_t p, bool two, LaneBlock* even,
                                                      LaneBlock* odd) {
  const size_t quants = Shape::QuantOffset(p), scales = Shape::ScaleOffset(p);
  const __m512i lut = _mm512_load_si512(kMxfp4CodePlus128);
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  __m512i lanes[16];
#pragma GCC unroll 4
  for (size_t g = 0; g < kLaneGroupGroups; ++g) {
#pragma GCC unroll 2
    for (size_t v = 0; v < 2; ++v) {
      const __m512i codes = _mm512_load_si512(group[g] + quants + 64 * v);
      lanes[4 * (2 * v) + g] = _mm512_shuffle_epi8(lut, _mm512_and_si512(codes, low4));
      lanes[4 * (2 * v + 1) + g] =
          _mm512_shuffle_epi8(lut, _mm512_and_si512(_mm512_srli_epi16(codes, 4), low4));
    }
  }
  // values[d] lane i: dword d of row kLaneRow[i]'s 64 bytes; dwords 4h + m hold values
  // 4m .. 4m + 3 of block 2p + h and dwords 8 + 4h + m values 16 + 4m ...
  __m512i values[16];
  lane_tile::Transpose16(lanes, values);
  // The groups' 8 exponent bytes each, as dwords: groups 0 and 1 in `low`, 2 and 3 in
  // `high`; lane i of block 2p + h is dword 8 * (i % 4) + 2 * (i / 4) + h of the two.
  const auto exponents = [&](size_t g) {
    return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(group[g] + scales));
  };
  const __m512i low = _mm512_cvtepu8_epi32(_mm_unpacklo_epi64(exponents(0), exponents(1)));
  const __m512i high = _mm512_cvtepu8_epi32(_mm_unpacklo_epi64(exponents(2), exponents(3)));
  const __m512i pick = _mm512_setr_epi32(0, 8, 16, 24, 2, 10, 18, 26, 4, 12, 20, 28, 6, 14, 22, 30);
  for (size_t h = 0; h < (two ? 2u : 1u); ++h) {
    LaneBlock* out = h == 0 ? even : odd;
#pragma GCC unroll 4
    for (int m = 0; m < 4; ++m) {
      _mm512_store_si512(&out->q[m], values[4 * h + m]);
      _mm512_store_si512(&out->q[4 + m], values[8 + 4 * h + m]);
    }
    const __m512i e = _mm512_permutex2var_epi32(
        low, _mm512_add_epi32(pick, _mm512_set1_epi32(static_cast<int>(h))), high);
    _mm512_store_ps(&out->d, E8m0HalfLanes(e));
  }
}

}  // namespace

void Mxfp4RepackedLaneGemmAvx512(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                                 size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                                 size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  lane_tile::RepackedGemm(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y,
                          y_stride, [](auto... args) { DecodePair(args...); });
}

}  // namespace cpubrrr
