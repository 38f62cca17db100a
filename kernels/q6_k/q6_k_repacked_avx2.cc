// AVX2 Q6_K x Q8_K gemv and gemm on the repacked layout (kernels/q6_k/q6_k_repacked.h),
// with the oracle's bits like Q6KGemvAvx2: per superblock each row's integer sum as there
// (quants from the A, B, C vectors, sub-block scales spread by one vpshufb per 32
// elements), the four rows' sums reduced together, and the oracle's float step on the four
// rows at once in one 128-bit vector (compiled without contraction). From
// kQ6KRepackedAvx2LaneTileFrom tokens the gemm runs the lane tile (q6_k_repacked_gemm_avx2.cc).
// Built twice: the Avx2 functions and, with AVX-VNNI, the AvxVnni ones (vpdpwssd scales and
// adds at once).
#include <immintrin.h>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/prefetch.h"
#include "kernels/tiles/avx2_dot-inl.h"
#include "kernels/q6_k/q6_k_repacked.h"

namespace cpubrrr {
namespace {

using avx2::Load;
using Shape = Q6KRepackedShape;

// How far ahead in the stream of groups the lines read now prefetch theirs: the nearest
// distance tried read the expert rows' cold memory fastest (research log). Each row's three
// lines are asked for as that row is read, not the unit's 13 at its start: on an Intel Xeon
// that read the expert down at 83% of the yardstick and the output head at 65% cold, this
// reads both at the yardstick. Prefetches stop at the call's last line, and its first
// kPrefetchBytes are asked for up front.
constexpr size_t kPrefetchBytes = size_t{3} << 10;

// vpshufb controls that spread int16 scale pair k (of a vector holding eight scales in both
// lanes) over a 32-element product vector: scale 2k over lanes 0-7, 2k + 1 over 8-15.
alignas(32) constexpr uint8_t kSpread[4][32] = {
    {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3},
    {4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7},
    {8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11},
    {12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13,
     14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15},
};

// Adds to acc the scaled pair sums of 32 quants q (elements 32k .. 32k + 31 of the block,
// k = 4 * half + j) with their activations; `scales` holds the block's scales 8 * half ..
// 8 * half + 7 as int16 in both lanes.
inline __m256i AddQuants(__m256i acc, __m256i q, const int8_t* x, __m256i scales, int j) {
  // Pairs of quant * int8 products fit int16 (2 * 63 * 128).
  const __m256i pairs = _mm256_maddubs_epi16(q, Load(x));
  const __m256i spread = _mm256_shuffle_epi8(scales, Load(kSpread[j]));
  return avx2::AddPairProducts(acc, pairs, spread);
}

// Returns one row's eight int32 lanes of sum_s scale_s * (dot_s - 32 * bsum_s) over a
// superblock: `scales` its 16 int8 sub-block scales, `a` its A, B, C vectors.
inline __m256i RowBlock(const int8_t* scales, const uint8_t* a, const BlockQ8K& x) {
  const __m256i low6 = _mm256_set1_epi8(0x3F);
  const __m256i s16 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(scales)));
  const __m256i first = _mm256_permute4x64_epi64(s16, 0x44);   // scales 0-7 in both lanes
  const __m256i second = _mm256_permute4x64_epi64(s16, 0xEE);  // scales 8-15 in both lanes
  __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 2
  for (int h = 0; h < 2; ++h) {
    // Elements 32h.., 64 + 32h.., 128 + 32h.. in the low six bits, 192 + 32h.. in the top two.
    const __m256i va = Load(a + 32 * h), vb = Load(a + 64 + 32 * h), vc = Load(a + 128 + 32 * h);
    const __m256i top = _mm256_or_si256(
        _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(va, 6), _mm256_set1_epi8(0x03)),
                        _mm256_and_si256(_mm256_srli_epi16(vb, 4), _mm256_set1_epi8(0x0C))),
        _mm256_and_si256(_mm256_srli_epi16(vc, 2), _mm256_set1_epi8(0x30)));
    acc = AddQuants(acc, _mm256_and_si256(va, low6), x.qs + 32 * h, first, h);
    acc = AddQuants(acc, _mm256_and_si256(vb, low6), x.qs + 64 + 32 * h, first, 2 + h);
    acc = AddQuants(acc, _mm256_and_si256(vc, low6), x.qs + 128 + 32 * h, second, h);
    acc = AddQuants(acc, top, x.qs + 192 + 32 * h, second, 2 + h);
  }
  // The offset of 32 through the activations' 16-element sums.
  const __m256i offsets = _mm256_madd_epi16(Load(x.bsums), s16);
  return _mm256_sub_epi32(acc, _mm256_slli_epi32(offsets, 5));
}

// One group of four rows against one token: per superblock the oracle's float step
// x.d * (d * isum), added in block order, in lane r for row r. Prefetches stop at
// last_line, the call's last line.
void Group(const uint8_t* group, const uint8_t* last_line, size_t n_blocks, const BlockQ8K* x, float* y,
           size_t valid_rows) {
  __m128 sum = _mm_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const uint8_t* unit = group + Shape::QuantOffset(b);
    if (b % kRepackedChunkUnits == 0) PrefetchLineUpTo(group + Shape::ScaleOffset(b) + kPrefetchBytes, last_line);
    PrefetchLineUpTo(unit + kPrefetchBytes, last_line);
    const int8_t* scales = reinterpret_cast<const int8_t*>(unit);
    const uint8_t* quants = unit + 64;
    auto row = [&](int i) __attribute__((always_inline)) {
#pragma GCC unroll 3
      for (int l = 0; l < 3; ++l) PrefetchLineUpTo(quants + 192 * i + kPrefetchBytes + 64 * l, last_line);
      return RowBlock(scales + 16 * i, quants + 192 * i, x[b]);
    };
    const __m256i r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
    const __m128i isum = avx2::SumInt32OfFour(r0, r1, r2, r3);
    const __m128 d = _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(group + Shape::ScaleOffset(b))));
    sum = _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(x[b].d), _mm_mul_ps(d, _mm_cvtepi32_ps(isum))));
  }
  avx2::StoreFirst(sum, valid_rows, y);
}

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Q6KRepackedGemv)(const uint8_t* packed, const Q6KRepackedShape& shape,
                                               size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y) {
  CPUBRRR_AVX2_VARIANT_NAME(Q6KRepackedGemm)(packed, shape, group_begin, n_groups, x, shape.n_blocks, 1, y, 0);
}

void CPUBRRR_AVX2_VARIANT_NAME(Q6KRepackedGemm)(const uint8_t* packed, const Q6KRepackedShape& shape,
                                               size_t group_begin, size_t n_groups, const BlockQ8K* x, size_t x_stride,
                                               size_t n_tokens, float* y, size_t y_stride) {
  if (n_tokens >= kQ6KRepackedAvx2LaneTileFrom) {
    CPUBRRR_AVX2_VARIANT_NAME(Q6KRepackedLaneGemm)(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y,
                                                   y_stride);
    return;
  }
  const size_t group_bytes = shape.GroupBytes();
  const size_t group_end = GroupRangeEnd(shape, group_begin, n_groups);
  if (group_end <= group_begin) return;
  const uint8_t* end = packed + group_end * group_bytes;
  PrefetchFirstLines(packed + group_begin * group_bytes, end, kPrefetchBytes);
  ForEachGroupThenToken(shape, group_begin, n_groups, n_tokens, [&](size_t g, size_t t, size_t valid_rows) {
    Group(packed + g * group_bytes, end - 64, shape.n_blocks, x + t * x_stride, y + t * y_stride + (g - group_begin) * kRepackedRows,
          valid_rows);
  });
}

}  // namespace cpubrrr
