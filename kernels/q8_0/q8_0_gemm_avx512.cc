// AVX-512 VNNI Q8_0 x Q8_0 gemm on the lane tile (kernels/tiles/lane_tile_avx512-inl.h):
// bit for bit the oracle's results, for prefill.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/tiles/lane_tile_avx512-inl.h"
#include "kernels/q8_0/q8_0_kernels.h"

namespace cpubrrr {
namespace {

// Decodes one Q8_0 block of 16 rows: quant dwords 0-3 are values 0-15 and dwords 4-7
// values 16-31, each with 128 added (the sign bit flipped); d_w is the block's f16 scale.
struct Q8_0Lanes {
  using Block = BlockQ8_0;

  __attribute__((always_inline)) void Decode(const uint8_t* const rows[lane_tile::kGroupRows],
                                             size_t offset, lane_tile::LaneBlock* out) const {
    const __m512i sign = _mm512_set1_epi8(static_cast<char>(0x80));
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      __m512i t[4];
      lane_tile::TransposeDwords(rows, offset + offsetof(BlockQ8_0, qs) + 16 * h, t);
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) _mm512_store_si512(&out->q[4 * h + k], _mm512_xor_si512(t[k], sign));
    }
    alignas(32) uint16_t scales[lane_tile::kGroupRows];
#pragma GCC unroll 16
    for (int i = 0; i < lane_tile::kGroupRows; ++i) {
      std::memcpy(&scales[i], rows[lane_tile::kLaneRow[i]] + offset + offsetof(BlockQ8_0, d), 2);
    }
    _mm512_store_ps(&out->d, _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(scales))));
  }
};

}  // namespace

void Q8_0GemmAvx512(const BlockQ8_0* w, size_t row_stride, size_t rows,
                    const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                    size_t n_blocks, float* y, size_t y_stride) {
  lane_tile::Gemm<Q8_0Lanes>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
