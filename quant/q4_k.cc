// Q4_K scalar reference encoder (ggml's weighted scale/min search) and decoder.
#include "quant/q4_k.h"

#include "quant/fp16.h"
#include "quant/kquant_fit.h"

namespace cpubrrr {
namespace {

constexpr int kSubBlocks = 8;
constexpr int kSubSize = 32;

// ggml's search for Q4_K: 4-bit quants, grids of 14 .. 16 steps in steps of 0.1.
constexpr ScaleMinSearch kQ4KSearch = {15, -1.0f, 20};

void QuantizeBlock(const float* x, BlockQ4K* y) {
  uint8_t q[kQ4KBlockSize];
  uint8_t sc[kSubBlocks];
  uint8_t m[kSubBlocks];
  QuantizeScaleMinSuperBlock(x, kQ4KSearch, sc, m, &y->d, &y->dmin, q);
  PackScaleMinK4(sc, m, y->scales);
  for (int p = 0; p < kSubBlocks / 2; ++p) {
    const uint8_t* lo = q + 2 * p * kSubSize;
    for (int i = 0; i < kSubSize; ++i) {
      y->qs[p * kSubSize + i] = lo[i] | static_cast<uint8_t>(lo[i + kSubSize] << 4);
    }
  }
}

}  // namespace

void PackScaleMinK4(const uint8_t* sc, const uint8_t* m, uint8_t* scales) {
  for (int j = 0; j < 4; ++j) {
    scales[j] = sc[j] | static_cast<uint8_t>((sc[j + 4] >> 4) << 6);
    scales[j + 4] = m[j] | static_cast<uint8_t>((m[j + 4] >> 4) << 6);
    scales[j + 8] = (sc[j + 4] & 0x0F) | static_cast<uint8_t>((m[j + 4] & 0x0F) << 4);
  }
}

void GetScaleMinK4(int j, const uint8_t* scales, uint8_t* sc, uint8_t* m) {
  if (j < 4) {
    *sc = scales[j] & 63;
    *m = scales[j + 4] & 63;
  } else {
    *sc = (scales[j + 4] & 0x0F) | ((scales[j - 4] >> 6) << 4);
    *m = (scales[j + 4] >> 4) | ((scales[j] >> 6) << 4);
  }
}

void QuantizeRowQ4K(const float* x, BlockQ4K* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ4KBlockSize; ++b) QuantizeBlock(x + b * kQ4KBlockSize, y + b);
}

void DequantizeRowQ4K(const BlockQ4K* x, float* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ4KBlockSize; ++b) {
    const float d = Fp16ToFp32(x[b].d);
    const float dmin = Fp16ToFp32(x[b].dmin);
    float* yb = y + b * kQ4KBlockSize;
    for (int j = 0; j < kSubBlocks; ++j) {
      uint8_t sc, m;
      GetScaleMinK4(j, x[b].scales, &sc, &m);
      const float step = d * sc;
      const float offset = dmin * m;
      // Even sub-blocks sit in the low nibbles of their 32-byte group, odd ones high.
      const uint8_t* qs = x[b].qs + (j / 2) * kSubSize;
      const int shift = (j % 2) * 4;
      for (int i = 0; i < kSubSize; ++i) {
        yb[kSubSize * j + i] = step * ((qs[i] >> shift) & 0x0F) - offset;
      }
    }
  }
}

}  // namespace cpubrrr
