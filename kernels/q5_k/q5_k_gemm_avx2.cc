// AVX2 Q5_K x Q8_K gemm of several tokens on the K-quant lane tile
// (kernels/kquant/lane_tile_kquant_avx2-inl.h): the oracle's bits, as the gemv's code per
// token gives them, in less time from kQ5KAvx2LaneTileFrom tokens on. Built twice:
// Q5KLaneGemmAvx2 and, with AVX-VNNI, Q5KLaneGemmAvxVnni.
#include <cstddef>
#include <cstdint>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/kquant/lane_tile_kquant_avx2-inl.h"
#include "kernels/q5_k/q5_k_avx2.h"

namespace cpubrrr {

void CPUBRRR_AVX2_VARIANT_NAME(Q5KLaneGemm)(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                            size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                                            size_t y_stride) {
  kquant_lanes_avx2::FileLayoutGemm(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
