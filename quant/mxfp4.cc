// MXFP4 scalar reference encoder and decoder, and the legacy Ollama block converter.
#include "quant/mxfp4.h"

#include <bit>
#include <cmath>

namespace cpubrrr {
namespace {

// Returns the code whose scaled value is nearest to v; ties keep the lowest code.
uint8_t NearestCode(float v, float scale) {
  uint8_t best = 0;
  float best_err = std::fabs(kMxfp4DoubledValues[0] * scale - v);
  for (uint8_t code = 1; code < 16; ++code) {
    const float err = std::fabs(kMxfp4DoubledValues[code] * scale - v);
    if (err < best_err) {
      best = code;
      best_err = err;
    }
  }
  return best;
}

// Returns the block exponent for largest magnitude `amax`. The exponent comes from
// log2f, not from the float's exponent bits, because log2f rounds up to the next
// integer just below large powers of two and the reference encoder inherits that.
uint8_t BlockExponent(float amax) {
  if (!(amax > 0.0f)) return 0;
  const int e = static_cast<int>(std::floor(std::log2(amax))) - 2 + 127;
  return static_cast<uint8_t>(e < 0 ? 0 : e);
}

}  // namespace

float E8m0ToFp32Half(uint8_t e) {
  // 2^(e-128) has float exponent field e-1 for e >= 2; below that it is subnormal with
  // its single set bit at mantissa position 21 + e.
  const uint32_t bits = e >= 2 ? static_cast<uint32_t>(e - 1) << 23 : 0x00200000u << e;
  return std::bit_cast<float>(bits);
}

void QuantizeRowMxfp4(const float* x, BlockMxfp4* y, int64_t n) {
  constexpr int kHalf = kMxfp4BlockSize / 2;
  for (int64_t b = 0; b < n / kMxfp4BlockSize; ++b) {
    const float* xb = x + b * kMxfp4BlockSize;
    float amax = 0.0f;
    for (int i = 0; i < kMxfp4BlockSize; ++i) {
      if (std::fabs(xb[i]) > amax) amax = std::fabs(xb[i]);
    }
    const uint8_t e = BlockExponent(amax);
    const float scale = E8m0ToFp32Half(e);
    y[b].e = e;
    for (int j = 0; j < kHalf; ++j) {
      y[b].qs[j] = NearestCode(xb[j], scale) | NearestCode(xb[j + kHalf], scale) << 4;
    }
  }
}

void DequantizeRowMxfp4(const BlockMxfp4* x, float* y, int64_t n) {
  constexpr int kHalf = kMxfp4BlockSize / 2;
  for (int64_t b = 0; b < n / kMxfp4BlockSize; ++b) {
    const float scale = E8m0ToFp32Half(x[b].e);
    float* yb = y + b * kMxfp4BlockSize;
    for (int j = 0; j < kHalf; ++j) {
      yb[j] = kMxfp4DoubledValues[x[b].qs[j] & 0x0F] * scale;
      yb[j + kHalf] = kMxfp4DoubledValues[x[b].qs[j] >> 4] * scale;
    }
  }
}

void ConvertOllamaLegacyMxfp4Block(const uint8_t* legacy, BlockMxfp4* out) {
  out->e = legacy[0];
  for (int j = 0; j < 8; ++j) {
    const uint8_t lo_pair = legacy[1 + j];  // elements 2j (low) and 2j+1 (high)
    const uint8_t hi_pair = legacy[9 + j];  // elements 16+2j (low) and 17+2j (high)
    out->qs[2 * j] = (lo_pair & 0x0F) | static_cast<uint8_t>(hi_pair << 4);
    out->qs[2 * j + 1] = (lo_pair >> 4) | (hi_pair & 0xF0);
  }
}

}  // namespace cpubrrr
