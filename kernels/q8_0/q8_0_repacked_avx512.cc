// AVX-512 VNNI Q8_0 x Q8_0 gemv on the repacked layout (kernels/q8_0/q8_0_repacked.h) in
// ggml's x86 order: 16 rows per register, and for each of a block's 8 int32 lanes of ggml's
// kernel (four values each) one accumulator, so that every row keeps ggml's 8 chains of one
// fused multiply-add per block. The gemm is in q8_0_repacked_lanes_avx512.cc.
#include <immintrin.h>

#include <vector>

#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

using Shape = Q8_0RepackedShape;

// One activation block as the gemv reads it: its quants as 8 dwords, and for dword k
// -128 * the sum of its four quants (the weights enter vpdpbusd plus 128).
struct alignas(64) PackedBlock {
  int32_t q[8];
  int32_t seed[8];
};

// Packs n_blocks activation blocks into this thread's buffers (quants and seeds, d_x).
void Pack(const BlockQ8_0* x, size_t n_blocks, const PackedBlock** packed, const float** d) {
  thread_local std::vector<PackedBlock> blocks;
  thread_local std::vector<float> scales;
  if (blocks.size() < n_blocks) {
    blocks.resize(n_blocks);
    scales.resize(n_blocks);
  }
  const __m256i offset = _mm256_set1_epi8(static_cast<char>(0x80));
  for (size_t b = 0; b < n_blocks; ++b) {
    const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs));
    _mm256_store_si256(reinterpret_cast<__m256i*>(blocks[b].q), q);
    _mm256_store_si256(reinterpret_cast<__m256i*>(blocks[b].seed),
                       _mm256_sub_epi32(_mm256_setzero_si256(),
                                        _mm256_dpbusd_epi32(_mm256_setzero_si256(), offset, q)));
    scales[b] = _cvtsh_ss(x[b].d);
  }
  *packed = blocks.data();
  *d = scales.data();
}

// One group of 16 rows: acc[k] lane i is row i's chain k (ggml's int32 lane k: values
// 4k .. 4k + 3 of each block), then ggml's sum of the 8 chains,
// ((c0 + c4) + (c2 + c6)) + ((c1 + c5) + (c3 + c7)). The group is one sequential stream;
// software prefetch at 1-16 KB ahead, alone or with two groups side by side, did not read
// it faster cold (research log, 2026-12-05 session 27).
void Group(const uint8_t* group, size_t n_blocks, const PackedBlock* x, const float* d_x,
           float* y, size_t valid_rows) {
  __m512 acc[8];
  for (__m512& a : acc) a = _mm512_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const uint8_t* quants = group + Shape::QuantOffset(b);
    // d_w * d_x of each row: ggml's product of the two floats.
    const __m512 d = _mm512_mul_ps(
        _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(group + Shape::ScaleOffset(b)))),
        _mm512_set1_ps(d_x[b]));
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      const __m512i dot = _mm512_dpbusd_epi32(_mm512_set1_epi32(x[b].seed[k]),
                                              _mm512_load_si512(quants + 64 * k), _mm512_set1_epi32(x[b].q[k]));
      acc[k] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), d, acc[k]);
    }
  }
  const __m512 sum = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(acc[0], acc[4]), _mm512_add_ps(acc[2], acc[6])),
                                   _mm512_add_ps(_mm512_add_ps(acc[1], acc[5]), _mm512_add_ps(acc[3], acc[7])));
  _mm512_mask_storeu_ps(y, static_cast<__mmask16>((1u << valid_rows) - 1), sum);
}

}  // namespace

void GemvQ8_0RepackedAvx512(const uint8_t* packed, const Q8_0RepackedShape& shape,
                            size_t group_begin, size_t n_groups, const BlockQ8_0* x, float* y) {
  const PackedBlock* xp;
  const float* d_x;
  Pack(x, shape.n_blocks, &xp, &d_x);
  const size_t group_bytes = shape.GroupBytes();
  ForEachGroup(shape, group_begin, n_groups, [&](size_t g, size_t valid_rows) {
    Group(packed + g * group_bytes, shape.n_blocks, xp, d_x, y + (g - group_begin) * kQ8_0RepackedRows,
          valid_rows);
  });
}

}  // namespace cpubrrr
