// AVX-512 VNNI Q8_0 x Q8_0 gemm on the repacked layout (kernels/q8_0/q8_0_repacked.h): the
// repacked lane tile (kernels/common/repacked_lane_tile_avx512-inl.h) with a Q8_0 pair
// decoder, so results are the oracle's bit for bit.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/common/repacked_lane_tile_avx512-inl.h"
#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

using lane_tile::kLaneGroupGroups;
using lane_tile::LaneBlock;
using Shape = Q8_0RepackedShape;

// Decodes pair p of the 16 rows of four repacked groups (group[G]) into LaneBlocks for
// blocks 2p (*even) and 2p + 1 (*odd, when `two`): lane i, row i / 4 of group i % 4, takes
// that row's 64 stored bytes (already plus 128), dwords 0-7 block 2p, 8-15 block 2p + 1.
__attribute__((always_inline)) inline void DecodePair(const uint8_t* const group[kLaneGroupGroups],
                                                      size_t p, bool two, LaneBlock* even,
                                                      LaneBlock* odd) {
  const size_t quants = Shape::QuantOffset(p), scales = Shape::ScaleOffset(p);
  __m512i rows[16];
#pragma GCC unroll 16
  for (size_t i = 0; i < 16; ++i) {
    rows[i] = _mm512_load_si512(group[i % 4] + quants + 64 * (i / 4));
  }
  __m512i values[16];
  lane_tile::Transpose16(rows, values);
  for (size_t h = 0; h < (two ? 2u : 1u); ++h) {
    LaneBlock* out = h == 0 ? even : odd;
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) _mm512_store_si512(&out->q[k], values[8 * h + k]);
    alignas(32) uint16_t d[lane_tile::kGroupRows];
#pragma GCC unroll 16
    for (size_t i = 0; i < lane_tile::kGroupRows; ++i) {
      std::memcpy(&d[i], group[i % 4] + scales + 2 * (2 * (i / 4) + h), 2);
    }
    _mm512_store_ps(&out->d, _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(d))));
  }
}

}  // namespace

void GemmQ8_0RepackedAvx512(const uint8_t* packed, const Q8_0RepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                            size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  lane_tile::RepackedGemm(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y,
                          y_stride, [](auto... args) { DecodePair(args...); });
}

}  // namespace cpubrrr
