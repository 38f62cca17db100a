// AVX-512 lane sums for the K-quant kernels: two int32 vectors folded into one.
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

}  // namespace cpubrrr::avx512

#endif  // CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_H_
