// Q5_K scalar reference encoder (ggml's weighted scale/min search) and decoder.
#include "quant/q5_k.h"

#include "quant/fp16.h"
#include "quant/kquant_fit.h"

namespace cpubrrr {
namespace {

constexpr int kSubBlocks = 8;
constexpr int kSubSize = 32;

// ggml's search for Q5_K: 5-bit quants, grids of 30.5 .. 32 steps in steps of 0.1.
constexpr ScaleMinSearch kQ5KSearch = {31, -0.5f, 15};

void QuantizeBlock(const float* x, BlockQ5K* y) {
  uint8_t q[kQ5KBlockSize];
  uint8_t sc[kSubBlocks];
  uint8_t m[kSubBlocks];
  QuantizeScaleMinSuperBlock(x, kQ5KSearch, sc, m, &y->d, &y->dmin, q);
  PackScaleMinK4(sc, m, y->scales);
  for (int i = 0; i < kSubSize; ++i) {
    uint8_t high = 0;
    for (int j = 0; j < kSubBlocks; ++j) high |= static_cast<uint8_t>((q[kSubSize * j + i] >> 4) << j);
    y->qh[i] = high;
  }
  for (int p = 0; p < kSubBlocks / 2; ++p) {
    const uint8_t* lo = q + 2 * p * kSubSize;
    for (int i = 0; i < kSubSize; ++i) {
      y->qs[p * kSubSize + i] = (lo[i] & 0x0F) | static_cast<uint8_t>((lo[i + kSubSize] & 0x0F) << 4);
    }
  }
}

}  // namespace

void QuantizeRowQ5K(const float* x, BlockQ5K* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ5KBlockSize; ++b) QuantizeBlock(x + b * kQ5KBlockSize, y + b);
}

void DequantizeRowQ5K(const BlockQ5K* x, float* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ5KBlockSize; ++b) {
    const float d = Fp16ToFp32(x[b].d);
    const float dmin = Fp16ToFp32(x[b].dmin);
    float* yb = y + b * kQ5KBlockSize;
    for (int j = 0; j < kSubBlocks; ++j) {
      uint8_t sc, m;
      GetScaleMinK4(j, x[b].scales, &sc, &m);
      const float step = d * sc;
      const float offset = dmin * m;
      for (int i = 0; i < kSubSize; ++i) yb[kSubSize * j + i] = step * Q5KQuant(x[b], j, i) - offset;
    }
  }
}

}  // namespace cpubrrr
