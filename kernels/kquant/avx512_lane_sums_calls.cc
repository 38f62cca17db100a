// Out-of-line calls of the AVX-512 lane sums; compiled with -mavx512f -mavx512bw -mavx512vl.
#include "kernels/kquant/avx512_lane_sums_calls.h"

#include "kernels/kquant/avx512_lane_sums.h"

namespace cpubrrr::avx512 {

void Sum8HalvesOf(const float* v, float* out) { _mm512_storeu_ps(out, Sum8Halves(_mm512_loadu_ps(v))); }

void Sum4QuartersOf(const float* v, float* out) {
  _mm512_storeu_ps(out, Sum4Quarters(_mm512_loadu_ps(v)));
}

}  // namespace cpubrrr::avx512
