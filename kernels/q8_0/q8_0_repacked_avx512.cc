// AVX-512 VNNI Q8_0 x Q8_0 gemv on the repacked layout (kernels/q8_0/q8_0_repacked.h):
// four rows per stream, each row's pair of blocks one 64-byte vpdpbusd operand as stored,
// and one load of 8 fp16 scales per pair gives all four rows' d_w * d_x (then a vpermps
// per row and block). The gemm is in q8_0_repacked_lanes_avx512.cc.
#include <immintrin.h>


#include "kernels/common/pair_tile_avx512-inl.h"
#include "kernels/common/prefetch.h"
#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

using pair_tile::PackedPair;
using Shape = Q8_0RepackedShape;

// One group of four rows: acc[r] is row r's chain of 8 lanes, one fused multiply-add per
// block in block order (ggml's order, pair_tile's kOneChain8); then each row's lane sum.
void Group(const uint8_t* group, size_t group_bytes, size_t n_blocks, const PackedPair* x,
           float* y, size_t valid_rows) {
  // d_x of block 2p in the even lanes, of 2p + 1 in the odd (PackedPair::d: lanes 0-7
  // and 8-15).
  const __m512i d_index = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 8, 0, 8, 0, 8, 0);
  __m256 acc[kRepackedRows];
  for (__m256& a : acc) a = _mm256_setzero_ps();
  // Block h of pair p: `two` is false for a lone last block.
  auto pair = [&](const uint8_t* scales, const uint8_t* quants, const PackedPair& p, bool two)
      __attribute__((always_inline)) {
    PrefetchLine(quants + group_bytes);
    PrefetchLine(quants + group_bytes + 64);
    PrefetchLine(quants + group_bytes + 128);
    PrefetchLine(quants + group_bytes + 192);
    // d_w * d_x of (row r, block 2p + h) in lane 2r + h: ggml's product of the two floats.
    const __m256 d = _mm256_mul_ps(
        _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(scales))),
        _mm512_castps512_ps256(_mm512_permutexvar_ps(d_index, _mm512_load_ps(p.d))));
    const __m512i q = _mm512_load_si512(p.q);
    const __m512i neg_offset = _mm512_load_si512(p.neg_offset);
#pragma GCC unroll 4
    for (size_t r = 0; r < kRepackedRows; ++r) {
      const __m512 f = _mm512_cvtepi32_ps(
          _mm512_dpbusd_epi32(neg_offset, _mm512_load_si512(quants + 64 * r), q));
      const __m256 lo = _mm256_permutexvar_ps(_mm256_set1_epi32(static_cast<int>(2 * r)), d);
      acc[r] = _mm256_fmadd_ps(_mm512_castps512_ps256(f), lo, acc[r]);
      if (two) {
        const __m256 hi = _mm256_permutexvar_ps(_mm256_set1_epi32(static_cast<int>(2 * r + 1)), d);
        acc[r] = _mm256_fmadd_ps(pair_tile::HighHalf(f), hi, acc[r]);
      }
    }
  };
  const size_t pairs = (n_blocks + 1) / 2, whole_pairs = n_blocks / 2;
  const uint8_t* chunk = group;
  size_t p = 0;
  for (; p + kRepackedChunkUnits <= whole_pairs; p += kRepackedChunkUnits) {
    PrefetchLine(chunk + group_bytes);
    PrefetchLine(chunk + group_bytes + 64);
#pragma GCC unroll 8
    for (size_t k = 0; k < kRepackedChunkUnits; ++k) {
      pair(chunk + Shape::ScaleOffset(k), chunk + Shape::QuantOffset(k), x[p + k], true);
    }
    chunk += Shape::kChunkBytes;
  }
  PrefetchLine(chunk + group_bytes);
  PrefetchLine(chunk + group_bytes + 64);
  for (size_t k = 0; p + k < pairs; ++k) {
    pair(chunk + Shape::ScaleOffset(k), chunk + Shape::QuantOffset(k), x[p + k], p + k < whole_pairs);
  }
  for (size_t r = 0; r < valid_rows; ++r) {
    y[r] = pair_tile::SumLanes8(_mm256_castps256_ps128(acc[r]), _mm256_extractf128_ps(acc[r], 1));
  }
}

}  // namespace

void GemvQ8_0RepackedAvx512(const uint8_t* packed, const Q8_0RepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8_0* x, float* y) {
  const PackedPair* xp = pair_tile::Pack<pair_tile::LaneOrder::kBlocks>(x, 0, 1, shape.n_blocks, shape.Units());
  const size_t group_bytes = shape.GroupBytes();
  ForEachGroup(shape, group_begin, n_groups, [&](size_t g, size_t valid_rows) {
    Group(packed + g * group_bytes, group_bytes, shape.n_blocks, xp,
          y + (g - group_begin) * kRepackedRows, valid_rows);
  });
}

}  // namespace cpubrrr
