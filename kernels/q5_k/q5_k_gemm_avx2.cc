// AVX2 Q5_K x Q8_K gemm of several tokens on the K-quant lane tile
// (kernels/kquant/lane_tile_kquant_avx2-inl.h): the oracle's bits, as the gemv's code per
// token gives them, in less time from kQ5KAvx2LaneTileFrom tokens on. Built twice:
// Q5KLaneGemmAvx2 and, with AVX-VNNI, Q5KLaneGemmAvxVnni.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/kquant/lane_tile_kquant_avx2-inl.h"
#include "kernels/q5_k/q5_k_avx2.h"

namespace cpubrrr {

using kquant_lanes_avx2::kPanelRows;
using kquant_lanes_avx2::RowSuper;

void CPUBRRR_AVX2_VARIANT_NAME(Q5KLaneGemm)(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                            size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                                            size_t y_stride) {
  const size_t n_panels = (rows + kPanelRows - 1) / kPanelRows;
  auto rows_of = [&](size_t p) { return static_cast<int>(std::min<size_t>(kPanelRows, rows - p * kPanelRows)); };
  // Rows past the matrix repeat the panel's first.
  auto locate = [&](size_t p, size_t b, RowSuper out[kPanelRows]) {
    for (int i = 0; i < kPanelRows; ++i) {
      const size_t r = p * kPanelRows + i;
      const BlockQ5K& block = w[(r < rows ? r : p * kPanelRows) * row_stride + b];
      out[i] = {reinterpret_cast<const uint8_t*>(&block), block.qs, block.qh};
    }
  };
  kquant_lanes_avx2::Gemm<5>(n_panels, n_blocks, x, x_stride, n_tokens, y, y_stride, locate, rows_of);
}

}  // namespace cpubrrr
