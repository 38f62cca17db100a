// Q8_0 scalar reference encoder and decoder.
#include "quant/q8_0.h"

#include <cmath>

#include "quant/fp16.h"

namespace cpubrrr {

void QuantizeRowQ8_0(const float* x, BlockQ8_0* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ8_0BlockSize; ++b) {
    const float* xb = x + b * kQ8_0BlockSize;
    float amax = 0.0f;
    for (int i = 0; i < kQ8_0BlockSize; ++i) amax = std::fmax(amax, std::fabs(xb[i]));
    // The scale stays in float for the quants; only the stored copy is rounded to fp16.
    const float d = amax / 127.0f;
    const float inv_d = d != 0.0f ? 1.0f / d : 0.0f;
    y[b].d = Fp32ToFp16(d);
    for (int i = 0; i < kQ8_0BlockSize; ++i) {
      y[b].qs[i] = static_cast<int8_t>(std::round(xb[i] * inv_d));
    }
  }
}

void DequantizeRowQ8_0(const BlockQ8_0* x, float* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ8_0BlockSize; ++b) {
    const float d = Fp16ToFp32(x[b].d);
    for (int i = 0; i < kQ8_0BlockSize; ++i) {
      y[b * kQ8_0BlockSize + i] = static_cast<float>(x[b].qs[i]) * d;
    }
  }
}

}  // namespace cpubrrr
