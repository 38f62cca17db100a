// AVX-512 VNNI MXFP4 x Q8_0 gemm on the lane tile (kernels/tiles/lane_tile_avx512-inl.h):
// bit for bit the oracle's results, for prefill and several tokens per expert (fewer
// tokens take the gemv's tile: Mxfp4GemmAvx512 in mxfp4_avx512.cc).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/tiles/lane_tile_avx512-inl.h"
#include "kernels/mxfp4/code_plus128.h"
#include "kernels/mxfp4/e8m0_avx512-inl.h"
#include "kernels/mxfp4/mxfp4_kernels.h"

namespace cpubrrr {
namespace {

// Decodes one MXFP4 block of 16 rows: the low nibbles of quant dword k are values
// 4k .. 4k + 3, the high nibbles values 16 + 4k ..; d_w = 2^(e-128).
struct Mxfp4Lanes {
  using Block = BlockMxfp4;

  __attribute__((always_inline)) void Decode(const uint8_t* const rows[lane_tile::kGroupRows],
                                             size_t offset, lane_tile::LaneBlock* out) const {
    __m512i t[4];
    lane_tile::TransposeDwords(rows, offset + offsetof(BlockMxfp4, qs), t);
    const __m512i lut = _mm512_load_si512(kMxfp4CodePlus128);
    const __m512i low4 = _mm512_set1_epi8(0x0F);
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      _mm512_store_si512(&out->q[k], _mm512_shuffle_epi8(lut, _mm512_and_si512(t[k], low4)));
      _mm512_store_si512(&out->q[4 + k], _mm512_shuffle_epi8(
                                             lut, _mm512_and_si512(_mm512_srli_epi16(t[k], 4), low4)));
    }
    alignas(16) uint8_t codes[lane_tile::kGroupRows];
#pragma GCC unroll 16
    for (int i = 0; i < lane_tile::kGroupRows; ++i) {
      codes[i] = rows[lane_tile::kLaneRow[i]][offset + offsetof(BlockMxfp4, e)];
    }
    _mm512_store_ps(&out->d, E8m0HalfLanes(_mm512_cvtepu8_epi32(
                                 _mm_load_si128(reinterpret_cast<const __m128i*>(codes)))));
  }
};

}  // namespace

void Mxfp4LaneGemmAvx512(const BlockMxfp4* w, size_t row_stride, size_t rows,
                         const BlockQ8_0* x, size_t x_stride, size_t n_tokens,
                         size_t n_blocks, float* y, size_t y_stride) {
  lane_tile::Gemm<Mxfp4Lanes>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
