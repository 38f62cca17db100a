// Q4_K scalar reference encoder (ggml's weighted scale/min search) and decoder.
#include "quant/q4_k.h"

#include <algorithm>
#include <cmath>

#include "quant/fp16.h"
#include "quant/rounding.h"

namespace cpubrrr {
namespace {

constexpr int kSubBlocks = 8;
constexpr int kSubSize = 32;
constexpr int kQMax = 15;      // 4-bit quants
constexpr int kScaleMax = 63;  // 6-bit scales and mins

// Returns the 4-bit quant of v - lo on a grid of 1/inv_step, clamped to 0..15.
int QuantOnGrid(float v, float lo, float inv_step) {
  return std::clamp(RoundNearestEven(inv_step * (v - lo)), 0, kQMax);
}

// Fits v ~= scale * q + lo with q in 0..15 and lo <= 0 for one 32-element sub-block,
// minimising the weighted squared error. Starts from the plain min/max grid, then tries
// 21 grids whose step spans (max-lo)/14 .. (max-lo)/16, each refit by least squares.
// Writes the quants to q, -lo to *neg_lo and returns scale. Every accepted grid also
// moves `lo`, which shifts the grids tried after it; the reference does the same.
float FitScaleMin(const float* v, const float* w, uint8_t* q, float* neg_lo) {
  float lo = v[0];
  float hi = v[0];
  float sum_w = w[0];
  float sum_x = sum_w * v[0];
  for (int i = 1; i < kSubSize; ++i) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
    sum_w += w[i];
    sum_x += w[i] * v[i];
  }
  if (lo > 0) lo = 0;
  if (hi == lo) {
    std::fill(q, q + kSubSize, 0);
    *neg_lo = -lo;
    return 0.0f;
  }
  float inv_step = kQMax / (hi - lo);
  float scale = 1 / inv_step;
  float best_err = 0;
  for (int i = 0; i < kSubSize; ++i) {
    q[i] = static_cast<uint8_t>(QuantOnGrid(v[i], lo, inv_step));
    const float diff = scale * q[i] + lo - v[i];
    best_err += w[i] * (diff * diff);
  }
  constexpr float kFirstOffset = -1.0f;  // grid sizes 14 .. 16 in steps of 0.1
  constexpr float kOffsetStep = 0.1f;
  constexpr int kSteps = 20;
  uint8_t trial[kSubSize];
  for (int s = 0; s <= kSteps; ++s) {
    inv_step = (kFirstOffset + kOffsetStep * s + kQMax) / (hi - lo);
    float sum_l = 0, sum_l2 = 0, sum_xl = 0;
    for (int i = 0; i < kSubSize; ++i) {
      const int l = QuantOnGrid(v[i], lo, inv_step);
      trial[i] = static_cast<uint8_t>(l);
      sum_l += w[i] * l;
      sum_l2 += w[i] * l * l;
      sum_xl += w[i] * l * v[i];
    }
    // Normal equations of the weighted fit v ~= a * l + b.
    const float det = sum_w * sum_l2 - sum_l * sum_l;
    if (!(det > 0)) continue;
    float a = (sum_w * sum_xl - sum_x * sum_l) / det;
    float b = (sum_l2 * sum_x - sum_l * sum_xl) / det;
    if (b > 0) {  // keep the offset non-positive: refit the scale alone
      b = 0;
      a = sum_xl / sum_l2;
    }
    float err = 0;
    for (int i = 0; i < kSubSize; ++i) {
      const float diff = a * trial[i] + b - v[i];
      err += w[i] * (diff * diff);
    }
    if (err < best_err) {
      std::copy(trial, trial + kSubSize, q);
      best_err = err;
      scale = a;
      lo = b;
    }
  }
  *neg_lo = -lo;
  return scale;
}

// Returns the 6-bit code of v / max * 63, as the reference computes it: the rounded int
// is first narrowed to a byte (wrapping), then capped at 63.
uint8_t SixBitCode(float v, float inv) {
  const uint8_t code = static_cast<uint8_t>(RoundNearestEven(inv * v));
  return std::min<uint8_t>(code, kScaleMax);
}

void QuantizeBlock(const float* x, BlockQ4K* y) {
  uint8_t q[kQ4KBlockSize];
  float scales[kSubBlocks];
  float mins[kSubBlocks];
  float max_scale = 0;
  float max_min = 0;
  for (int j = 0; j < kSubBlocks; ++j) {
    const float* xs = x + kSubSize * j;
    // Weight each element by the sub-block's RMS plus its own magnitude.
    float sum_x2 = 0;
    for (int i = 0; i < kSubSize; ++i) sum_x2 += xs[i] * xs[i];
    const float rms = std::sqrt(sum_x2 / kSubSize);
    float w[kSubSize];
    for (int i = 0; i < kSubSize; ++i) w[i] = rms + std::fabs(xs[i]);
    scales[j] = FitScaleMin(xs, w, q + kSubSize * j, &mins[j]);
    if (scales[j] > max_scale) max_scale = scales[j];
    if (mins[j] > max_min) max_min = mins[j];
  }
  const float inv_scale = max_scale > 0 ? kScaleMax / max_scale : 0.0f;
  const float inv_min = max_min > 0 ? kScaleMax / max_min : 0.0f;
  uint8_t sc[kSubBlocks];
  uint8_t m[kSubBlocks];
  for (int j = 0; j < kSubBlocks; ++j) {
    sc[j] = SixBitCode(scales[j], inv_scale);
    m[j] = SixBitCode(mins[j], inv_min);
  }
  PackScaleMinK4(sc, m, y->scales);
  y->d = Fp32ToFp16(max_scale / kScaleMax);
  y->dmin = Fp32ToFp16(max_min / kScaleMax);

  // Requantize against the scales as stored; a sub-block whose scale rounds to zero
  // keeps the quants of its fit.
  const float d = Fp16ToFp32(y->d);
  const float dmin = Fp16ToFp32(y->dmin);
  for (int j = 0; j < kSubBlocks; ++j) {
    const float step = d * sc[j];
    if (step == 0) continue;
    const float offset = dmin * m[j];
    for (int i = 0; i < kSubSize; ++i) {
      const int l = RoundNearestEven((x[kSubSize * j + i] + offset) / step);
      q[kSubSize * j + i] = static_cast<uint8_t>(std::clamp(l, 0, kQMax));
    }
  }
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
