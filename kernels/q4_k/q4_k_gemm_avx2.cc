// AVX2 Q4_K x Q8_K gemm of several tokens on the K-quant lane tile
// (kernels/kquant/lane_tile_kquant_avx2-inl.h), for the GGUF layout and the repacked one: the
// oracle's bits, as the gemv's code per token gives them, in less time from
// kQ4KAvx2LaneTileFrom tokens on. Built twice: the *Avx2 functions and, with AVX-VNNI, the
// *AvxVnni ones.
#include <cstddef>
#include <cstdint>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/kquant/lane_tile_kquant_avx2-inl.h"
#include "kernels/q4_k/q4_k_avx2.h"
#include "kernels/q4_k/q4_k_repacked.h"

namespace cpubrrr {

using kquant_lanes_avx2::kPanelRows;
using kquant_lanes_avx2::RowSuper;

void CPUBRRR_AVX2_VARIANT_NAME(Q4KLaneGemm)(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                            size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                                            size_t y_stride) {
  kquant_lanes_avx2::FileLayoutGemm(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

void CPUBRRR_AVX2_VARIANT_NAME(Q4KRepackedLaneGemm)(const uint8_t* packed, const Q4KRepackedShape& shape,
                                                    size_t group_begin, size_t n_groups, const BlockQ8K* x,
                                                    size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  const lane_tile_avx2::GroupPanels panels{group_begin, GroupRangeEnd(shape, group_begin, n_groups), shape.rows};
  if (panels.end <= panels.begin) return;
  const size_t group_bytes = shape.GroupBytes();
  auto locate = [&](size_t p, size_t b, RowSuper out[kPanelRows]) {
    for (size_t g = 0; g < panels.kGroups; ++g) {
      const uint8_t* unit = packed + panels.Group(p, g) * group_bytes + Q4KRepackedShape::QuantOffset(b);
      for (size_t rr = 0; rr < kRepackedRows; ++rr) {
        out[g * kRepackedRows + rr] = {unit + Q4KRepackedHeaderOffset(rr), unit + Q4KRepackedQuantsOffset(rr),
                                       nullptr};
      }
    }
  };
  kquant_lanes_avx2::Gemm<4>(panels.Count(), shape.n_blocks, x, x_stride, n_tokens, y, y_stride, locate,
                        [&](size_t p) { return panels.Rows(p); });
}

}  // namespace cpubrrr
