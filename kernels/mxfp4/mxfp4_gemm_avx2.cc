// AVX2 MXFP4 x Q8_0 gemm on the lane tile (kernels/tiles/lane_tile_avx2-inl.h): bit for
// bit the oracle's results, for prefill and several tokens per expert (fewer tokens take
// the gemv's tile: Mxfp4GemmAvx2 in mxfp4_avx2.cc). Built twice: Mxfp4LaneGemmAvx2 and, with
// AVX-VNNI, Mxfp4LaneGemmAvxVnni.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/mxfp4/code_plus12.h"
#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"
#include "kernels/tiles/lane_tile_avx2-inl.h"

namespace cpubrrr {

using lane_tile_avx2::kPanelRows;

void CPUBRRR_AVX2_VARIANT_NAME(Mxfp4LaneGemm)(const BlockMxfp4* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                                              size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  const lane_tile_avx2::RowPanels<BlockMxfp4> panels{w, row_stride, rows};
  // Panel p's blocks: per two rows, one vector holds both rows' 16 quant bytes; its low
  // nibbles are values 0-15, its high ones 16-31; rows past the matrix repeat the first.
  auto decode = [&](size_t p, lane_tile_avx2::LaneBlock* out) {
    const BlockMxfp4* row[kPanelRows];
    for (int i = 0; i < kPanelRows; ++i) row[i] = panels.Row(p, i);
    const __m256i lut = _mm256_load_si256(reinterpret_cast<const __m256i*>(kMxfp4CodePlus12));
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    for (size_t b = 0; b < n_blocks; ++b) {
      __m256i values[kPanelRows];  // row i: values 0..31 of block b, four per dword
#pragma GCC unroll 4
      for (int i = 0; i < kPanelRows; i += 2) {
        const __m256i q = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row[i][b].qs))),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(row[i + 1][b].qs)), 1);
        const __m256i lo = _mm256_shuffle_epi8(lut, _mm256_and_si256(q, low4));
        const __m256i hi = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(q, 4), low4));
        values[i] = _mm256_permute2x128_si256(lo, hi, 0x20);
        values[i + 1] = _mm256_permute2x128_si256(lo, hi, 0x31);
      }
      lane_tile_avx2::Transpose8(values, out[b].q);
      out[b].d = _mm256_setr_ps(kE8m0Half.v[row[0][b].e], kE8m0Half.v[row[1][b].e], kE8m0Half.v[row[2][b].e],
                                kE8m0Half.v[row[3][b].e], kE8m0Half.v[row[4][b].e], kE8m0Half.v[row[5][b].e],
                                kE8m0Half.v[row[6][b].e], kE8m0Half.v[row[7][b].e]);
    }
  };
  lane_tile_avx2::Gemm(panels.Count(), n_blocks, kMxfp4CodeOffset, x, x_stride, n_tokens, y, y_stride, decode,
                       [&](size_t p) { return panels.Rows(p); });
}

}  // namespace cpubrrr
