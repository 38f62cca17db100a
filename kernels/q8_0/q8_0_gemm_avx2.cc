// AVX2 Q8_0 x Q8_0 gemm on the lane tile (kernels/tiles/lane_tile_avx2-inl.h): bit for bit
// the oracle's results, for prefill (fewer tokens take the gemv's row tile: Q8_0GemmAvx2 in
// q8_0_avx2.cc). Built twice: Q8_0LaneGemmAvx2 and, with AVX-VNNI, Q8_0LaneGemmAvxVnni.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/prefetch.h"
#include "kernels/q8_0/q8_0_kernels.h"
#include "kernels/tiles/lane_tile_avx2-inl.h"

namespace cpubrrr {

using lane_tile_avx2::kPanelRows;

void CPUBRRR_AVX2_VARIANT_NAME(Q8_0LaneGemm)(const BlockQ8_0* w, size_t row_stride, size_t rows, const BlockQ8_0* x,
                                             size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  const lane_tile_avx2::RowPanels<BlockQ8_0> panels{w, row_stride, rows};
  // Panel p's blocks: each row's 32 quants are eight dwords, transposed so that vector k
  // holds dword k of every row; rows past the matrix repeat the first. Each block asks for
  // the same block of the next panel's rows (one stream per row, which the hardware
  // prefetcher alone follows too late).
  auto decode = [&](size_t p, lane_tile_avx2::LaneBlock* out) {
    const BlockQ8_0* row[kPanelRows];
    for (int i = 0; i < kPanelRows; ++i) row[i] = panels.Row(p, i);
    const bool has_next = p + 1 < panels.Count();
    const size_t ahead = kPanelRows * row_stride;
    for (size_t b = 0; b < n_blocks; ++b) {
      __m256i values[kPanelRows];
      alignas(16) uint16_t scales[kPanelRows];
#pragma GCC unroll 8
      for (int i = 0; i < kPanelRows; ++i) {
        if (has_next) PrefetchSpan<sizeof(BlockQ8_0)>(row[i] + b + ahead);
        values[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row[i][b].qs));
        scales[i] = row[i][b].d;
      }
      lane_tile_avx2::Transpose8(values, out[b].q);
      out[b].d = _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(scales)));
    }
  };
  auto rows_of = [&](size_t p) { return panels.Rows(p); };
  lane_tile_avx2::Gemm<lane_tile_avx2::WeightBytes::kSigned>(panels.Count(), n_blocks, 0, x, x_stride, n_tokens, y,
                                                             y_stride, decode, rows_of);
}

}  // namespace cpubrrr
