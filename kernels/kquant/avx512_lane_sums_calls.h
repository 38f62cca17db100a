// Out-of-line calls of avx512_lane_sums.h on arrays, so a test built for any x86 CPU can
// check the CPU before any AVX-512 instruction runs.
#ifndef CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_CALLS_H_
#define CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_CALLS_H_

namespace cpubrrr::avx512 {

// out[0..15] = Sum8Halves / Sum4Quarters of v[0..15].
void Sum8HalvesOf(const float* v, float* out);
void Sum4QuartersOf(const float* v, float* out);

}  // namespace cpubrrr::avx512

#endif  // CPUBRRR_KERNELS_KQUANT_AVX512_LANE_SUMS_CALLS_H_
