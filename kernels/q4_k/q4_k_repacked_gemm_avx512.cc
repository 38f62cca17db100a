// AVX-512 VNNI Q4_K x Q8_K gemm of Avx512LaneTileFrom() tokens or more on the repacked
// layout (kernels/q4_k/q4_k_repacked.h): the repacked K-quant lane tile (kernels/kquant/repacked_lane_tile_kquant_avx512-inl.h) with
// the GGUF gemm's decode pointed at the repacked rows, so results are the oracle's bit for
// bit.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/kquant/repacked_lane_tile_kquant_avx512-inl.h"
#include "kernels/q4_k/q4_k_lane_parts_avx512-inl.h"
#include "kernels/q4_k/q4_k_repacked.h"

namespace cpubrrr {
namespace {

struct Q4KRepackedLanes {
  using Block = BlockQ4K;
  static constexpr int kSubs = 8;
  static constexpr bool kMins = true;

  // Superblock b of the 16 rows of four groups (row 4g + rr of the 16 is row rr of group g).
  __attribute__((always_inline)) void DecodeRepacked(const uint8_t* const group[lane_tile::kLaneGroupGroups],
                                                     size_t b, q4_k_lanes::Super* out) const {
    const uint8_t* headers[kquant_lanes::kGroupRows];
    const uint8_t* quants[kquant_lanes::kGroupRows];
#pragma GCC unroll 16
    for (size_t r = 0; r < kquant_lanes::kGroupRows; ++r) {
      const uint8_t* unit = group[r / kRepackedRows] + Q4KRepackedShape::QuantOffset(b);
      const size_t rr = r % kRepackedRows;
      headers[r] = unit + Q4KRepackedHeaderOffset(rr);
      quants[r] = unit + Q4KRepackedQuantsOffset(rr);
    }
    q4_k_lanes::Decode(headers, quants, out);
  }

  void Sums(const BlockQ8K& x, int32_t* out) const { q4_k_lanes::Sums(x, out); }
};

}  // namespace

void Q4KRepackedLaneGemmAvx512(const uint8_t* packed, const Q4KRepackedShape& shape,
                               size_t group_begin, size_t n_groups, const BlockQ8K* x,
                               size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  kquant_lanes::RepackedGemm<Q4KRepackedLanes>(packed, shape, group_begin, n_groups, x, x_stride,
                                               n_tokens, y, y_stride);
}

}  // namespace cpubrrr
