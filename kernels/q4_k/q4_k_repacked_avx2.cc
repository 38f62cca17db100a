// AVX2 Q4_K x Q8_K gemv and gemm on the repacked layout (kernels/q4_k/q4_k_repacked.h),
// with the oracle's bits like Q4KGemvAvx2: per superblock each row's integer sums as there,
// the four rows' sums reduced together, and the oracle's float step on the four rows at
// once in one 128-bit vector (compiled without contraction). From kQ4KAvx2LaneTileFrom
// tokens the gemm runs the lane tile (q4_k_gemm_avx2.cc). Built twice: the Avx2 functions
// and, with AVX-VNNI, the AvxVnni ones (vpdpwssd scales and adds at once).
#include <immintrin.h>

#include <cstddef>
#include <cstring>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/prefetch.h"
#include "kernels/tiles/avx2_dot-inl.h"
#include "kernels/kquant/q4_k_scales.h"
#include "kernels/q4_k/q4_k_avx2.h"
#include "kernels/q4_k/q4_k_repacked.h"

namespace cpubrrr {
namespace {

using avx2::Load;
using Shape = Q4KRepackedShape;

// How far ahead in a group's stream each superblock prefetches (then again at half and a
// quarter of it: PrefetchSpanThrice): four units (9 KiB). Two units read cold memory
// slower on an Intel Xeon (research log).
constexpr size_t kPrefetchBytes = 4 * kQ4KRepackedUnitBytes;

// One row's integer sums of a superblock against x: the scaled nibble dots (8 int32 lanes)
// and the mins times the activation sub-block sums (8 int32 lanes), as Q4KGemvAvx2 forms them.
struct RowSums {
  __m256i dots, mins;
};

inline RowSums RowBlock(const uint8_t* header, const uint8_t* qs, const BlockQ8K& x) {
  const Q4KScalesMins sm = UnpackQ4KScales(header + offsetof(BlockQ4K, scales));
  // The eight int16 scales in both halves, for avx2::SpreadInt16.
  const __m256i sc = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(sm.sc))));
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 4
  for (int p = 0; p < 4; ++p) {
    const __m256i bytes = Load(qs + 32 * p);
    // Pairs of nibble * int8 products fit int16 (2 * 15 * 128); scaled pairs fit int32.
    const __m256i lo = _mm256_maddubs_epi16(_mm256_and_si256(bytes, low4), Load(x.qs + 64 * p));
    const __m256i hi = _mm256_maddubs_epi16(_mm256_and_si256(_mm256_srli_epi16(bytes, 4), low4), Load(x.qs + 64 * p + 32));
    acc = avx2::AddPairProducts(acc, lo, avx2::SpreadInt16(sc, 2 * p));
    acc = avx2::AddPairProducts(acc, hi, avx2::SpreadInt16(sc, 2 * p + 1));
  }
  const __m128i m8 = _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(sm.m)));
  const __m256i mins = _mm256_set_m128i(_mm_unpackhi_epi16(m8, m8), _mm_unpacklo_epi16(m8, m8));
  return {acc, _mm256_madd_epi16(Load(x.bsums), mins)};
}

// Returns the four rows' fp16 values at byte `offset` of their headers, as floats.
inline __m128 HeaderHalves(const uint8_t* unit, size_t offset) {
  uint16_t h[4];
  for (size_t rr = 0; rr < kRepackedRows; ++rr) {
    std::memcpy(&h[rr], unit + Q4KRepackedHeaderOffset(rr) + offset, sizeof(uint16_t));
  }
  return _mm_cvtph_ps(_mm_setr_epi16(static_cast<int16_t>(h[0]), static_cast<int16_t>(h[1]),
                                     static_cast<int16_t>(h[2]), static_cast<int16_t>(h[3]), 0, 0, 0, 0));
}

// One group of four rows against one token: per superblock the oracle's float step
// x.d * (d * isum - dmin * msum), added in block order, in lane r for row r.
void Group(const uint8_t* group, size_t n_blocks, const BlockQ8K* x, float* y, size_t valid_rows) {
  __m128 sum = _mm_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const uint8_t* unit = group + Shape::QuantOffset(b);
    PrefetchSpanThrice<kQ4KRepackedUnitBytes>(unit, kPrefetchBytes);
    RowSums r[kRepackedRows];
#pragma GCC unroll 4
    for (size_t rr = 0; rr < kRepackedRows; ++rr) {
      r[rr] = RowBlock(unit + Q4KRepackedHeaderOffset(rr), unit + Q4KRepackedQuantsOffset(rr), x[b]);
    }
    const __m128 isum = _mm_cvtepi32_ps(avx2::SumInt32OfFour(r[0].dots, r[1].dots, r[2].dots, r[3].dots));
    const __m128 msum = _mm_cvtepi32_ps(avx2::SumInt32OfFour(r[0].mins, r[1].mins, r[2].mins, r[3].mins));
    const __m128 d = HeaderHalves(unit, offsetof(BlockQ4K, d));
    const __m128 dmin = HeaderHalves(unit, offsetof(BlockQ4K, dmin));
    const __m128 block = _mm_mul_ps(_mm_set1_ps(x[b].d), _mm_sub_ps(_mm_mul_ps(d, isum), _mm_mul_ps(dmin, msum)));
    sum = _mm_add_ps(sum, block);
  }
  avx2::StoreFirst(sum, valid_rows, y);
}

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Q4KRepackedGemv)(const uint8_t* packed, const Q4KRepackedShape& shape,
                                               size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y) {
  CPUBRRR_AVX2_VARIANT_NAME(Q4KRepackedGemm)(packed, shape, group_begin, n_groups, x, shape.n_blocks, 1, y, 0);
}

void CPUBRRR_AVX2_VARIANT_NAME(Q4KRepackedGemm)(const uint8_t* packed, const Q4KRepackedShape& shape,
                                               size_t group_begin, size_t n_groups, const BlockQ8K* x, size_t x_stride,
                                               size_t n_tokens, float* y, size_t y_stride) {
  if (n_tokens >= kQ4KAvx2LaneTileFrom) {
    CPUBRRR_AVX2_VARIANT_NAME(Q4KRepackedLaneGemm)(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y,
                                                   y_stride);
    return;
  }
  const size_t group_bytes = shape.GroupBytes();
  ForEachGroupThenToken(shape, group_begin, n_groups, n_tokens, [&](size_t g, size_t t, size_t valid_rows) {
    Group(packed + g * group_bytes, shape.n_blocks, x + t * x_stride, y + t * y_stride + (g - group_begin) * kRepackedRows,
          valid_rows);
  });
}

}  // namespace cpubrrr
