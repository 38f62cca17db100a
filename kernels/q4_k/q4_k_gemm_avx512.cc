// AVX-512 VNNI Q4_K x Q8_K gemm of Avx512LaneTileFrom() tokens or more on the K-quant
// lane tile (kernels/kquant/lane_tile_kquant_avx512-inl.h): bit for bit the oracle's results.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/kquant/lane_tile_kquant_avx512-inl.h"
#include "kernels/q4_k/q4_k_avx512.h"
#include "kernels/q4_k/q4_k_lane_parts_avx512-inl.h"

namespace cpubrrr {
namespace {

// The GGUF layout's decoder: row r's block at rows[r] + offset.
struct Q4KLanes {
  using Block = BlockQ4K;
  static constexpr int kSubs = 8;
  static constexpr bool kMins = true;

  __attribute__((always_inline)) void Decode(const uint8_t* const rows[kquant_lanes::kGroupRows],
                                             size_t offset, q4_k_lanes::Super* out) const {
    const uint8_t* headers[kquant_lanes::kGroupRows];
    const uint8_t* quants[kquant_lanes::kGroupRows];
#pragma GCC unroll 16
    for (int r = 0; r < kquant_lanes::kGroupRows; ++r) {
      headers[r] = rows[r] + offset;
      quants[r] = rows[r] + offset + offsetof(BlockQ4K, qs);
    }
    q4_k_lanes::Decode(headers, quants, out);
  }

  void Sums(const BlockQ8K& x, int32_t* out) const { q4_k_lanes::Sums(x, out); }
};

}  // namespace

void Q4KLaneGemmAvx512(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                       size_t x_stride, size_t n_tokens, size_t n_blocks, float* y,
                       size_t y_stride) {
  kquant_lanes::Gemm<Q4KLanes>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

}  // namespace cpubrrr
