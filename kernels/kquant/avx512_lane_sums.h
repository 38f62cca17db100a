// AVX-512 lane sums for the K-quant kernels: int32 halves folded, ggml's float sum trees
// taken on many rows at once.
#ifndef CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_H_
#define CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_H_

#include <immintrin.h>

namespace cpubrrr::avx512 {

// Returns {x's lower 256 bits + x's upper 256 bits, the same for y} as int32 lanes: lane i
// < 8 is x_i + x_i+8, lane 8 + i is y_i + y_i+8.
inline __m512i AddHalves(__m512i x, __m512i y) {
  return _mm512_add_epi32(_mm512_shuffle_i64x2(x, y, _MM_SHUFFLE(1, 0, 1, 0)),
                          _mm512_shuffle_i64x2(x, y, _MM_SHUFFLE(3, 2, 3, 2)));
}

// Returns ggml_x86::Sum8 of lanes 0..7 in lane 0 and of lanes 8..15 in lane 8, with the
// same additions in the same order (the other lanes hold partial sums).
inline __m512 Sum8Halves(__m512 v) {
  // Lane i + lane i ^ 4 (128-bit blocks swapped within each half), then + lanes {2, 3} of
  // the block, then + lane 1.
  const __m512 t = _mm512_add_ps(v, _mm512_shuffle_f32x4(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
  const __m512 u = _mm512_add_ps(t, _mm512_permute_ps(t, _MM_SHUFFLE(3, 2, 3, 2)));
  return _mm512_add_ps(u, _mm512_movehdup_ps(u));
}

// Returns ggml_x86::Sum4 of each 128-bit block's four lanes in the block's lane 0.
inline __m512 Sum4Quarters(__m512 v) {
  const __m512 u = _mm512_add_ps(v, _mm512_permute_ps(v, _MM_SHUFFLE(3, 2, 3, 2)));
  return _mm512_add_ps(u, _mm512_movehdup_ps(u));
}

}  // namespace cpubrrr::avx512

#endif  // CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_H_
