// Q8_K scalar reference encoder and decoder.
#include "quant/q8_k.h"

#include <algorithm>
#include <cmath>

#include "quant/rounding.h"

namespace cpubrrr {
namespace {

void QuantizeBlock(const float* x, BlockQ8K* y) {
  float amax = 0;
  float max = 0;
  for (int i = 0; i < kQ8KBlockSize; ++i) {
    if (std::fabs(x[i]) > amax) {
      amax = std::fabs(x[i]);
      max = x[i];
    }
  }
  if (amax == 0) {
    *y = BlockQ8K{};
    return;
  }
  // -127, not -128: quants stay in the symmetric range -127..127, as ggml defines Q8_K.
  const float inv = -127.0f / max;
  for (int i = 0; i < kQ8KBlockSize; ++i) {
    y->qs[i] = static_cast<int8_t>(std::min(127, RoundNearestEven(inv * x[i])));
  }
  for (int k = 0; k < kQ8KBlockSize / 16; ++k) {
    int sum = 0;
    for (int i = 0; i < 16; ++i) sum += y->qs[16 * k + i];
    y->bsums[k] = static_cast<int16_t>(sum);
  }
  y->d = 1 / inv;
}

}  // namespace

void QuantizeRowQ8K(const float* x, BlockQ8K* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ8KBlockSize; ++b) QuantizeBlock(x + b * kQ8KBlockSize, y + b);
}

void DequantizeRowQ8K(const BlockQ8K* x, float* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ8KBlockSize; ++b) {
    for (int i = 0; i < kQ8KBlockSize; ++i) y[b * kQ8KBlockSize + i] = x[b].d * x[b].qs[i];
  }
}

}  // namespace cpubrrr
