// AVX-512 VNNI MXFP4 x Q8_0 gemv on the repacked layout (kernels/mxfp4/mxfp4_repacked.h):
// four rows per stream, one 64-byte load decodes a pair for two rows, and one exponent
// load per pair gives all four rows' scales (vscalefps, then a vpermps per row). The gemm
// of a few tokens runs the same group loop for each (the gemv's bits), of more the lane
// tile (mxfp4_repacked_gemm_avx512.cc).
#include <immintrin.h>

#include <cmath>

#include "kernels/tiles/pair_tile_avx512-inl.h"
#include "kernels/common/few_tokens.h"
#include "kernels/common/prefetch.h"
#include "kernels/mxfp4/code_plus128.h"
#include "kernels/mxfp4/e8m0_table.h"
#include "kernels/mxfp4/mxfp4_kernels.h"
#include "kernels/mxfp4/mxfp4_repacked.h"

namespace cpubrrr {
namespace {

using pair_tile::PackedPair;
using Shape = Mxfp4RepackedShape;

// How far ahead in the stream of groups each pair prefetches: a fixed 10 KiB read cold
// memory faster than one group ahead (6 KiB for gpt-oss's 2880 columns) on Zen 5 (research
// log).
constexpr size_t kPrefetchBytes = size_t{10} << 10;

// Lanes of a pair's scale vector for row r: block 2p in lanes 0-3 and 8-11, 2p + 1 in
// 4-7 and 12-15 (pair_tile's kHalves order), taken from lanes 2r and 2r + 1 of the
// pair's eight scales.
__m512i RowScaleIndex(int r) {
  const __m512i even = _mm512_set1_epi32(2 * r);
  return _mm512_mask_add_epi32(even, 0xF0F0, even, _mm512_set1_epi32(1));
}

// One group of four rows against T tokens (x[t * pairs_stride] token t's pairs): acc[r][t]
// gathers row r's even/odd block lanes over the whole pairs (ggml's two chains), then each
// sum, plus a lone last block, goes to y[t * y_stride + r]. Each token's sums are the
// gemv's (T = 1) bit for bit.
template <int T>
void Group(const uint8_t* group, size_t n_blocks, const PackedPair* x, size_t pairs_stride,
           float* y, size_t y_stride, size_t valid_rows) {
  const __m512i lut = _mm512_load_si512(kMxfp4CodePlus128);
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  const __m512i e_bias = _mm512_set1_epi32(128);
  // d_x of block 2p in lanes 0, 2, 4, 6 and of 2p + 1 in the odd lanes.
  const __m512i d_index = _mm512_set_epi32(4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0);
  __m512i index[kRepackedRows];
  __m512 acc[kRepackedRows][T];
#pragma GCC unroll 4
  for (size_t r = 0; r < kRepackedRows; ++r) {
    index[r] = RowScaleIndex(static_cast<int>(r));
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) acc[r][t] = _mm512_setzero_ps();
  }
  const size_t whole_pairs = n_blocks / 2;
  // `ahead` is the pair's nibbles kPrefetchBytes on, on a pointer of its own (AheadOf).
  auto pair = [&](const uint8_t* exponents, const uint8_t* nibbles, const uint8_t* ahead, size_t p)
      __attribute__((always_inline)) {
    PrefetchLine(ahead);
    PrefetchLine(ahead + 64);
    // Scales d_w * d_x of (row r, block 2p + k) in lane 2r + k: exactly the product
    // 2^(e - 128) * d_x that ggml rounds once, as vscalefps rounds d_x * 2^(e - 128) once.
    const __m256i e = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(exponents)));
    const __m256 e_unbiased = _mm256_cvtepi32_ps(_mm256_sub_epi32(e, _mm512_castsi512_si256(e_bias)));
    __m512 scales[T];
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) {
      const __m256 d =
          _mm512_castps512_ps256(_mm512_permutexvar_ps(d_index, _mm512_load_ps(x[t * pairs_stride + p].d)));
      scales[t] = _mm512_castps256_ps512(_mm256_scalef_ps(d, e_unbiased));
    }
#pragma GCC unroll 2
    for (size_t v = 0; v < 2; ++v) {
      const __m512i codes = _mm512_load_si512(nibbles + 64 * v);
      const __m512i w[2] = {
          _mm512_shuffle_epi8(lut, _mm512_and_si512(codes, low4)),
          _mm512_shuffle_epi8(lut, _mm512_and_si512(_mm512_srli_epi16(codes, 4), low4))};
#pragma GCC unroll 2
      for (size_t k = 0; k < 2; ++k) {
        const size_t r = 2 * v + k;
#pragma GCC unroll 4
        for (int t = 0; t < T; ++t) {
          const PackedPair& xp = x[t * pairs_stride + p];
          const __m512 f = _mm512_cvtepi32_ps(
              _mm512_dpbusd_epi32(_mm512_load_si512(xp.neg_offset), w[k], _mm512_load_si512(xp.q)));
          acc[r][t] = _mm512_fmadd_ps(f, _mm512_permutexvar_ps(index[r], scales[t]), acc[r][t]);
        }
      }
    }
  };
  const uint8_t* chunk = group;
  const uint8_t* ahead = AheadOf(group, kPrefetchBytes);  // walks with chunk
  size_t p = 0;
  for (; p + kRepackedChunkUnits <= whole_pairs; p += kRepackedChunkUnits) {
    PrefetchLine(ahead);
#pragma GCC unroll 8
    for (size_t k = 0; k < kRepackedChunkUnits; ++k) {
      pair(chunk + Shape::ScaleOffset(k), chunk + Shape::QuantOffset(k), ahead + Shape::QuantOffset(k), p + k);
    }
    chunk += Shape::kChunkBytes;
    ahead += Shape::kChunkBytes;
  }
  PrefetchLine(ahead);
  for (size_t k = 0; p + k < whole_pairs; ++k) {
    pair(chunk + Shape::ScaleOffset(k), chunk + Shape::QuantOffset(k), ahead + Shape::QuantOffset(k), p + k);
  }
  const size_t lone_k = whole_pairs - p;  // the lone block's pair within the last chunk
  // Rows and tokens unrolled: acc indexed by constants stays in registers.
#pragma GCC unroll 4
  for (size_t r = 0; r < kRepackedRows; ++r) {
    if (r == valid_rows) break;
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) {
      // Even + odd chain: lanes 0-3 + 4-7 and 8-11 + 12-15.
      const __m512 a = acc[r][t];
      const __m512 sum = _mm512_add_ps(a, _mm512_shuffle_f32x4(a, a, _MM_SHUFFLE(2, 3, 0, 1)));
      float total = pair_tile::SumLanes8(_mm512_castps512_ps128(sum), _mm512_extractf32x4_ps(sum, 2));
      if (n_blocks % 2 != 0) {
        // ggml adds an odd last block after the lanes, as one fused multiply-add of its dot.
        const PackedPair& last = x[t * pairs_stride + whole_pairs];
        const __m512i codes = _mm512_load_si512(chunk + Shape::QuantOffset(lone_k) + 64 * (r / 2));
        const __m512i nib = (r % 2) ? _mm512_srli_epi16(codes, 4) : codes;
        const __m512i w = _mm512_shuffle_epi8(lut, _mm512_and_si512(nib, low4));
        const int32_t isum = _mm512_reduce_add_epi32(
            _mm512_dpbusd_epi32(_mm512_load_si512(last.neg_offset), w, _mm512_load_si512(last.q)));
        const float d = kE8m0Half.v[chunk[Shape::ScaleOffset(lone_k) + 2 * r]] * last.d[0];
        total = std::fma(d, static_cast<float>(isum), total);
      }
      y[t * y_stride + r] = total;
    }
  }
}

// Group<T> over the groups [group_begin, group_begin + n_groups) for T = n_tokens, one of
// 1..kMaxT.
template <int kMaxT>
void Groups(const uint8_t* packed, const Mxfp4RepackedShape& shape, size_t group_begin,
            size_t n_groups, const PackedPair* x, size_t n_tokens, float* y, size_t y_stride) {
  if (n_tokens != kMaxT) {
    if constexpr (kMaxT > 1) Groups<kMaxT - 1>(packed, shape, group_begin, n_groups, x, n_tokens, y, y_stride);
    return;
  }
  const size_t group_bytes = shape.GroupBytes();
  ForEachGroup(shape, group_begin, n_groups, [&](size_t g, size_t valid_rows) {
    Group<kMaxT>(packed + g * group_bytes, shape.n_blocks, x, shape.Units(),
                 y + (g - group_begin) * kRepackedRows, y_stride, valid_rows);
  });
}

}  // namespace

void Mxfp4RepackedGemvAvx512(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                             size_t group_begin, size_t n_groups, const BlockQ8_0* x, float* y) {
  const PackedPair* xp = pair_tile::Pack<pair_tile::LaneOrder::kHalves>(x, 0, 1, shape.n_blocks, shape.Units());
  Groups<1>(packed, shape, group_begin, n_groups, xp, 1, y, 0);
}

void Mxfp4RepackedGemmAvx512(const uint8_t* packed, const Mxfp4RepackedShape& shape,
                             size_t group_begin, size_t n_groups, const BlockQ8_0* x,
                             size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  if (n_tokens >= Avx512LaneTileFrom()) {
    Mxfp4RepackedLaneGemmAvx512(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y, y_stride);
    return;
  }
  const PackedPair* xp =
      pair_tile::Pack<pair_tile::LaneOrder::kHalves>(x, x_stride, n_tokens, shape.n_blocks, shape.Units());
  Groups<kAvx512FewTokensMax>(packed, shape, group_begin, n_groups, xp, n_tokens, y, y_stride);
}

}  // namespace cpubrrr
