// AVX-512 VNNI Q6_K x Q8_K gemv on the repacked layout (kernels/q6_k/q6_k_repacked.h): four
// rows per stream, each row's superblock decoded from three 64-byte loads (three masks and
// one gather of the top bits), in ggml's x86 float order as the GGUF-layout gemv. And the
// gemm: below Avx512LaneTileFrom() tokens the same code with each row decoded once for
// all of them, from it on the lane tile of q6_k_repacked_gemm_avx512.cc.
#include <immintrin.h>

#include "kernels/common/cpu_features.h"
#include "kernels/common/few_tokens.h"
#include "kernels/common/prefetch.h"
#include "kernels/kquant/avx512_lane_sums.h"
#include "kernels/kquant/ggml_x86_order.h"
#include "kernels/q6_k/q6_k_kernels.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "kernels/q6_k/q6_k_repacked_bits_avx512-inl.h"
#include "kernels/tiles/token_tiles.h"

namespace cpubrrr {
namespace {

using Shape = Q6KRepackedShape;

// How far ahead in the group stream the lines read now prefetch theirs, per CPU class:
// 8 KiB, or 16 KiB on Intel. Each row's three lines are asked for as that row is read, not
// the unit's 13 at its start: the cold expert down and output head read faster that way.
// On Zen 5 the down read slower 6, 10 or 12 KiB ahead; on an Intel Xeon the output head
// read 76% of the yardstick 8 or 12 KiB ahead and 88-90% 16 KiB ahead, the down level.
// Prefetches stop at the call's last line, and its first lines up to the distance are
// asked for up front (research log).
size_t PrefetchBytes() {
  static const size_t bytes = CpuVendor() == "GenuineIntel" ? size_t{16} << 10 : size_t{8} << 10;
  return bytes;
}

// A row's superblock decoded once for all the tokens it meets: its four quant vectors
// (lane i of vector k covers elements 64k + 4i .. 64k + 4i + 3, sub-block 4k + i/4, as in
// the GGUF-layout gemv) and, per vector, each lane's sub-block scale in its low int16.
struct RowQuants {
  __m512i q[4];
  __m512i scales[4];
};

// Decodes the row whose A, B, C start at `abc` and whose 16 scales are at `scales`.
inline RowQuants DecodeRow(const uint8_t* abc, const int8_t* scales) {
  const __m512i a = _mm512_load_si512(abc);
  const __m512i b = _mm512_load_si512(abc + 64);
  const __m512i c = _mm512_load_si512(abc + 128);
  RowQuants row = {{q6_k_repacked::LowSix(a), q6_k_repacked::LowSix(b), q6_k_repacked::LowSix(c),
                    q6_k_repacked::TopBits(a, b, c)},
                   {}};
  const __m512i sc32 = _mm512_and_si512(
      _mm512_cvtepi8_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(scales))),
      _mm512_set1_epi32(0xFFFF));
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    const int s = 4 * k;
    row.scales[k] = _mm512_permutexvar_epi32(
        _mm512_set_epi32(s + 3, s + 3, s + 3, s + 3, s + 2, s + 2, s + 2, s + 2, s + 1, s + 1,
                         s + 1, s + 1, s, s, s, s),
        sc32);
  }
  return row;
}

// Returns int32 lanes summing to sum_s scales_s * dot(q_s, x_s) (quants unbiased) for `row`
// against the token quants xq. A vpdpbusd lane holds 4 products of at most 63 * 128, so it
// fits the int16 that vpdpwssd reads from its low half (the high half is only sign bits,
// multiplied by zero).
inline __m512i RowDots(const RowQuants& row, const int8_t* xq) {
  __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    const __m512i dot =
        _mm512_dpbusd_epi32(_mm512_setzero_si512(), row.q[k], _mm512_loadu_si512(xq + 64 * k));
    acc = _mm512_dpwssd_epi32(acc, dot, row.scales[k]);
  }
  return acc;
}

// One group of four rows against T tokens (token t's activations at x + t * x_stride, its
// results at y + t * y_stride): acc[t][p] holds rows 2p and 2p + 1, ggml's eight lanes
// each; per superblock the scaled sums minus the bias lanes (32 * scale * bsum, the quants'
// offset), then one FMA per row pair; at the end ggml's sum tree per row. Each row is
// decoded once for all T tokens and every token gets the bits it gets alone (T = 1: the
// gemv).
template <int T>
void Group(const uint8_t* group, const uint8_t* last_line, size_t ahead, size_t n_blocks,
           const BlockQ8K* x, size_t x_stride, float* y, size_t y_stride, size_t valid_rows) {
  __m512 acc[T][2];
  for (auto& a : acc) a[0] = a[1] = _mm512_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const uint8_t* unit = group + Shape::QuantOffset(b);
    const uint8_t* d_line = group + Shape::ScaleOffset(b);
    if (b % kRepackedChunkUnits == 0) PrefetchLineUpTo(d_line + ahead, last_line);
    PrefetchLineUpTo(unit + ahead, last_line);  // the four rows' scales
    const int8_t* scales = reinterpret_cast<const int8_t*>(unit);
    const __m128 d4 = _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(d_line)));
#pragma GCC unroll 2
    for (int p = 0; p < 2; ++p) {
      __m512i sums[2][T];
#pragma GCC unroll 2
      for (int i = 0; i < 2; ++i) {
        const uint8_t* abc = unit + 64 + 192 * (2 * p + i);
#pragma GCC unroll 3
        for (int l = 0; l < 3; ++l) PrefetchLineUpTo(abc + ahead + 64 * l, last_line);
        const RowQuants row = DecodeRow(abc, scales + 16 * (2 * p + i));
#pragma GCC unroll 4
        for (int t = 0; t < T; ++t) sums[i][t] = RowDots(row, x[t * x_stride + b].qs);
      }
      const __m512i s16 =
          _mm512_cvtepi8_epi16(_mm256_load_si256(reinterpret_cast<const __m256i*>(scales + 32 * p)));
      const int r0 = 2 * p, r1 = 2 * p + 1;
      const __m512i pair_lanes =
          _mm512_set_epi32(r1, r1, r1, r1, r1, r1, r1, r1, r0, r0, r0, r0, r0, r0, r0, r0);
#pragma GCC unroll 4
      for (int t = 0; t < T; ++t) {
        const BlockQ8K& xb = x[t * x_stride + b];
        const __m512i bsums = _mm512_broadcast_i64x4(
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb.bsums)));
        const __m512i bias = _mm512_slli_epi32(_mm512_madd_epi16(s16, bsums), 5);
        const __m512i l = _mm512_sub_epi32(avx512::AddHalves(sums[0][t], sums[1][t]), bias);
        // x.d * d_r in lane r (ggml's product).
        const __m512 dd = _mm512_castps128_ps512(_mm_mul_ps(_mm_set1_ps(xb.d), d4));
        acc[t][p] = _mm512_fmadd_ps(_mm512_permutexvar_ps(pair_lanes, dd), _mm512_cvtepi32_ps(l),
                                    acc[t][p]);
      }
    }
  }
  for (int t = 0; t < T; ++t) {
    alignas(64) float lanes[2][16];
    _mm512_store_ps(lanes[0], acc[t][0]);
    _mm512_store_ps(lanes[1], acc[t][1]);
    for (size_t r = 0; r < valid_rows; ++r) y[t * y_stride + r] = ggml_x86::Sum8(&lanes[r / 2][8 * (r % 2)]);
  }
}

// Group<T> over the groups [group_begin, group_begin + n_groups) for T = n_tokens (1 to
// kAvx512FewTokensMax).
void Groups(const uint8_t* packed, const Q6KRepackedShape& shape, size_t group_begin,
            size_t n_groups, const BlockQ8K* x, size_t x_stride, size_t n_tokens, float* y,
            size_t y_stride) {
  const size_t group_bytes = shape.GroupBytes();
  const size_t group_end = GroupRangeEnd(shape, group_begin, n_groups);
  if (group_end <= group_begin) return;
  const uint8_t* end = packed + group_end * group_bytes;
  const size_t ahead = PrefetchBytes();
  PrefetchFirstLines(packed + group_begin * group_bytes, end, ahead);
  WithCount<kAvx512FewTokensMax>(n_tokens, [&](auto tokens) {
    ForEachGroup(shape, group_begin, n_groups, [&](size_t g, size_t valid_rows) {
      Group<decltype(tokens)::value>(packed + g * group_bytes, end - 64, ahead, shape.n_blocks, x,
                                     x_stride, y + (g - group_begin) * kRepackedRows, y_stride,
                                     valid_rows);
    });
  });
}

}  // namespace

void Q6KRepackedGemvAvx512(const uint8_t* packed, const Q6KRepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y) {
  Groups(packed, shape, group_begin, n_groups, x, 0, 1, y, 0);
}

void Q6KRepackedGemmAvx512(const uint8_t* packed, const Q6KRepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8K* x,
                           size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  if (n_tokens >= Avx512LaneTileFrom()) {
    Q6KRepackedLaneGemmAvx512(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y, y_stride);
    return;
  }
  Groups(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y, y_stride);
}

}  // namespace cpubrrr
