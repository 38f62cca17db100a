// AVX2 MXFP4 x Q8_0 gemv, and gemm of a few tokens, on the repacked layout
// (kernels/mxfp4/mxfp4_repacked.h), with Mxfp4GemvAvx2's bits (ggml's AVX2 order): one
// 32-byte load of nibbles decodes half a pair for two rows, one exponent load gives the
// four rows' scales of a pair, and a row's int32 lanes are ggml's partial dots of four
// values, so its two chains keep their order. More tokens take the lane tile
// (mxfp4_repacked_gemm_avx2.cc). Built twice: the Avx2 functions and, with AVX-VNNI, the
// AvxVnni ones, whose vpdpbusd forms the same partial dots in one instruction.
#include <immintrin.h>

#include <vector>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/prefetch.h"
#include "kernels/tiles/avx2_dot-inl.h"
#include "kernels/mxfp4/code_plus12.h"
#include "kernels/mxfp4/e8m0_avx2-inl.h"
#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "quant/mxfp4.h"

namespace cpubrrr {
namespace {

using Shape = Mxfp4RepackedShape;

// How far ahead in the stream of groups each pair prefetches: nearer than the AVX-512
// gemv's 10 KiB, because the slower AVX2 loop reads cold weights faster with the nearer
// distance (docs/RESEARCH_LOG.md).
constexpr size_t kPrefetchBytes = size_t{3} << 10;

// A pair sum of the lookup's values (kMxfp4CodePlus12, 0..24) is below 2 * 24 * 127 <
// 32768, so vpmaddubsw never saturates.

// One token's activation blocks 2p and 2p + 1 in the layout's order: `lows` holds values
// 0-15 of both blocks, `highs` values 16-31 (as the nibble vectors hold them).
struct alignas(32) PackedPair {
  int8_t lows[32], highs[32];
  int32_t low_offsets[8], high_offsets[8];  // -12 * the sum of each int32 lane's four bytes
  float d[8];                               // d_x of block 2p in even lanes, 2p + 1 in odd
};

// Returns -12 * the sum of each int32 lane's four signed bytes of q: the lookup's offset
// taken back out of a lane's dot.
inline __m256i Offsets(__m256i q) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_set1_epi8(1), q), _mm256_set1_epi16(-kMxfp4CodeOffset));
}


// Returns this thread's buffer holding the whole pairs of n_tokens tokens (`pairs` each).
const PackedPair* Pack(const BlockQ8_0* x, size_t x_stride, size_t n_tokens, size_t pairs) {
  thread_local std::vector<PackedPair> buffer;
  if (buffer.size() < n_tokens * pairs) buffer.resize(n_tokens * pairs);
  for (size_t t = 0; t < n_tokens; ++t) {
    const BlockQ8_0* xt = x + t * x_stride;
    for (size_t p = 0; p < pairs; ++p) {
      PackedPair& out = buffer[t * pairs + p];
      const __m256i q0 = avx2::Load(xt[2 * p].qs), q1 = avx2::Load(xt[2 * p + 1].qs);
      const __m256i lows = _mm256_permute2x128_si256(q0, q1, 0x20);
      const __m256i highs = _mm256_permute2x128_si256(q0, q1, 0x31);
      _mm256_store_si256(reinterpret_cast<__m256i*>(out.lows), lows);
      _mm256_store_si256(reinterpret_cast<__m256i*>(out.highs), highs);
      _mm256_store_si256(reinterpret_cast<__m256i*>(out.low_offsets), Offsets(lows));
      _mm256_store_si256(reinterpret_cast<__m256i*>(out.high_offsets), Offsets(highs));
      const float d0 = avx2::HalfToFloat(xt[2 * p].d), d1 = avx2::HalfToFloat(xt[2 * p + 1].d);
      _mm256_store_ps(out.d, _mm256_setr_ps(d0, d1, d0, d1, d0, d1, d0, d1));
    }
  }
  return buffer.data();
}

// Returns 2^(e - 128) for the eight exponent bytes at `p`, as kE8m0Half has it.
inline __m256 HalfScales(const uint8_t* p) {
  return avx2::E8m0HalfLanes(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}

// Adds one row's partial dots of a pair to its chains: `low` and `high` hold the row's
// nibbles (in the low four bits of each byte) for values 0-15 and 16-31 of both blocks, s
// the row's scales (block 2p in lanes 0-3, 2p + 1 in 4-7).
inline void AddRow(__m256i low, __m256i high, __m256 s, const PackedPair& p, __m256i lut, __m256& low_chain,
                   __m256& high_chain) {
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i w_low = _mm256_shuffle_epi8(lut, _mm256_and_si256(low, low4));
  const __m256i w_high = _mm256_shuffle_epi8(lut, _mm256_and_si256(high, low4));
  const __m256i dot_low = avx2::AddDots4(avx2::Load(p.low_offsets), w_low, avx2::Load(p.lows));
  const __m256i dot_high = avx2::AddDots4(avx2::Load(p.high_offsets), w_high, avx2::Load(p.highs));
  low_chain = _mm256_fmadd_ps(s, _mm256_cvtepi32_ps(dot_low), low_chain);
  high_chain = _mm256_fmadd_ps(s, _mm256_cvtepi32_ps(dot_high), high_chain);
}

// Returns row r's scales from a pair's eight: lane 2r in lanes 0-3, 2r + 1 in 4-7.
template <int r>
inline __m256 RowScales(__m256 scales) {
  return _mm256_permutevar8x32_ps(scales, _mm256_setr_epi32(2 * r, 2 * r, 2 * r, 2 * r, 2 * r + 1, 2 * r + 1,
                                                            2 * r + 1, 2 * r + 1));
}

// Adds pair p's partial dots of the four rows (exponents and nibbles: the pair's bytes in
// its chunk; ahead: the nibbles kPrefetchBytes on, on a pointer of its own, AheadOf) to
// their chains.
__attribute__((always_inline)) inline void AddPair(const uint8_t* exponents, const uint8_t* nibbles,
                                                   const uint8_t* ahead, const PackedPair& p, __m256i lut, __m256& low0, __m256& high0,
                                                   __m256& low1, __m256& high1, __m256& low2, __m256& high2,
                                                   __m256& low3, __m256& high3) {
  PrefetchLine(ahead);
  PrefetchLine(ahead + 64);
  // d_w * d_x of (row r, block 2p + j) in lane 2r + j, each one rounded product.
  const __m256 scales = _mm256_mul_ps(_mm256_load_ps(p.d), HalfScales(exponents));
  const __m256i a_low = avx2::Load(nibbles), a_high = avx2::Load(nibbles + 32);  // rows 0 and 1
  AddRow(a_low, a_high, RowScales<0>(scales), p, lut, low0, high0);
  AddRow(_mm256_srli_epi16(a_low, 4), _mm256_srli_epi16(a_high, 4), RowScales<1>(scales), p, lut, low1, high1);
  const __m256i b_low = avx2::Load(nibbles + 64), b_high = avx2::Load(nibbles + 96);  // rows 2 and 3
  AddRow(b_low, b_high, RowScales<2>(scales), p, lut, low2, high2);
  AddRow(_mm256_srli_epi16(b_low, 4), _mm256_srli_epi16(b_high, 4), RowScales<3>(scales), p, lut, low3, high3);
}

// One group of four rows against one token: low_r and high_r carry row r's partial dots
// of values 0-15 and 16-31, ggml's even chain in lanes 0-3 and odd chain in 4-7, over the
// whole pairs; then each row's sum, plus a lone last block, goes to y.
void Group(const uint8_t* group, size_t n_blocks, const PackedPair* x, const BlockQ8_0* x_blocks, float* y,
           size_t valid_rows) {
  const __m256i lut = avx2::Load(kMxfp4CodePlus12);
  __m256 low0 = _mm256_setzero_ps(), low1 = low0, low2 = low0, low3 = low0;
  __m256 high0 = low0, high1 = low0, high2 = low0, high3 = low0;
  const size_t whole_pairs = n_blocks / 2;
  const uint8_t* chunk = group;
  const uint8_t* ahead = AheadOf(group, kPrefetchBytes);  // walks with chunk
  size_t p = 0;
  for (; p + kRepackedChunkUnits <= whole_pairs;
       p += kRepackedChunkUnits, chunk += Shape::kChunkBytes, ahead += Shape::kChunkBytes) {
    PrefetchLine(ahead);
#pragma GCC unroll 8
    for (size_t k = 0; k < kRepackedChunkUnits; ++k) {
      AddPair(chunk + Shape::ScaleOffset(k), chunk + Shape::QuantOffset(k), ahead + Shape::QuantOffset(k), x[p + k], lut, low0, high0, low1, high1,
              low2, high2, low3, high3);
    }
  }
  PrefetchLine(ahead);
  for (size_t k = 0; p + k < whole_pairs; ++k) {
    AddPair(chunk + Shape::ScaleOffset(k), chunk + Shape::QuantOffset(k), ahead + Shape::QuantOffset(k), x[p + k], lut, low0, high0, low1, high1,
            low2, high2, low3, high3);
  }
  const __m256 lows[kRepackedRows] = {low0, low1, low2, low3}, highs[kRepackedRows] = {high0, high1, high2, high3};
  const size_t lone_k = whole_pairs - p;  // the lone block's pair in the last chunk
  for (size_t r = 0; r < valid_rows; ++r) {
    // ggml's even + odd chains lane by lane (lanes 0-3 of both from lows, 4-7 from highs),
    // then its sum of the eight lanes.
    const __m128 low = _mm_add_ps(_mm256_castps256_ps128(lows[r]), _mm256_extractf128_ps(lows[r], 1));
    const __m128 high = _mm_add_ps(_mm256_castps256_ps128(highs[r]), _mm256_extractf128_ps(highs[r], 1));
    float sum = avx2::SumLanes(_mm256_set_m128(high, low));
    if (n_blocks % 2 != 0) {
      // As Mxfp4GemvAvx2 adds an odd last block: its whole dot, after the lanes.
      const BlockQ8_0& xb = x_blocks[n_blocks - 1];
      const uint8_t* v = chunk + Shape::QuantOffset(lone_k) + 64 * (r / 2);
      const int shift = 4 * static_cast<int>(r % 2);
      int32_t isum = 0;
      for (int j = 0; j < 16; ++j) {
        isum += kMxfp4DoubledValues[(v[j] >> shift) & 15] * xb.qs[j] +
                kMxfp4DoubledValues[(v[32 + j] >> shift) & 15] * xb.qs[j + 16];
      }
      const float scale = avx2::HalfToFloat(xb.d) * kE8m0Half.v[chunk[Shape::ScaleOffset(lone_k) + 2 * r]];
      sum += scale * static_cast<float>(isum);
    }
    y[r] = sum;
  }
}

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Mxfp4RepackedGemv)(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                                                 size_t group_begin, size_t n_groups, const BlockQ8_0* x, float* y) {
  CPUBRRR_AVX2_VARIANT_NAME(Mxfp4RepackedGemm)(packed, shape, group_begin, n_groups, x, shape.n_blocks, 1, y, 0);
}

void CPUBRRR_AVX2_VARIANT_NAME(Mxfp4RepackedGemm)(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                                                 size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                                                 size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  if (n_tokens >= kMxfp4Avx2LaneTileFrom) {
    CPUBRRR_AVX2_VARIANT_NAME(Mxfp4RepackedLaneGemm)(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y,
                                                     y_stride);
    return;
  }
  const size_t pairs = shape.n_blocks / 2;
  const PackedPair* xp = Pack(x, x_stride, n_tokens, pairs);
  const size_t group_bytes = shape.GroupBytes();
  ForEachGroupThenToken(shape, group_begin, n_groups, n_tokens, [&](size_t g, size_t t, size_t valid_rows) {
    Group(packed + g * group_bytes, shape.n_blocks, xp + t * pairs, x + t * x_stride,
          y + t * y_stride + (g - group_begin) * kRepackedRows, valid_rows);
  });
}

}  // namespace cpubrrr
