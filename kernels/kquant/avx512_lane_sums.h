// AVX-512 transpose-and-add: up to sixteen int32 vectors reduced to one vector of their sums.
#ifndef CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_H_
#define CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_H_

#include <immintrin.h>

namespace cpubrrr::avx512 {

// Returns, per 128-bit lane L, {sum of v0's lane L, v1's, v2's, v3's}: unpacking pairs of
// inputs and adding halves the number of vectors at each of the two steps.
inline __m512i SumsOf4PerLane(__m512i v0, __m512i v1, __m512i v2, __m512i v3) {
  const __m512i a = _mm512_add_epi32(_mm512_unpacklo_epi32(v0, v1), _mm512_unpackhi_epi32(v0, v1));
  const __m512i b = _mm512_add_epi32(_mm512_unpacklo_epi32(v2, v3), _mm512_unpackhi_epi32(v2, v3));
  return _mm512_add_epi32(_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b));
}

// Returns {x.L0 + x.L1, x.L2 + x.L3, y.L0 + y.L1, y.L2 + y.L3} in 128-bit lanes.
inline __m512i AddLanePairs(__m512i x, __m512i y) {
  return _mm512_add_epi32(_mm512_shuffle_i64x2(x, y, _MM_SHUFFLE(2, 0, 2, 0)),
                          _mm512_shuffle_i64x2(x, y, _MM_SHUFFLE(3, 1, 3, 1)));
}

// Returns a vector whose int32 lane i is the sum of the sixteen lanes of v[i], i < 16.
inline __m512i LaneSums16(const __m512i v[16]) {
  const __m512i s0 = SumsOf4PerLane(v[0], v[1], v[2], v[3]);
  const __m512i s1 = SumsOf4PerLane(v[4], v[5], v[6], v[7]);
  const __m512i s2 = SumsOf4PerLane(v[8], v[9], v[10], v[11]);
  const __m512i s3 = SumsOf4PerLane(v[12], v[13], v[14], v[15]);
  return AddLanePairs(AddLanePairs(s0, s1), AddLanePairs(s2, s3));
}

// Returns a 256-bit vector whose int32 lane i is the sum of the sixteen lanes of v[i], i < 8.
inline __m256i LaneSums8(const __m512i v[8]) {
  const __m512i s = AddLanePairs(SumsOf4PerLane(v[0], v[1], v[2], v[3]),
                                 SumsOf4PerLane(v[4], v[5], v[6], v[7]));
  // s = {v0..3 half A, v0..3 half B, v4..7 half A, v4..7 half B}: add the halves.
  const __m512i t = AddLanePairs(s, s);
  return _mm512_castsi512_si256(t);
}

}  // namespace cpubrrr::avx512

#endif  // CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_H_
