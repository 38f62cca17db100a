// Q6_K scalar reference encoder (ggml's symmetric scale search) and decoder.
#include "quant/q6_k.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "quant/fp16.h"
#include "quant/rounding.h"

namespace cpubrrr {
namespace {

constexpr int kSubBlocks = 16;
constexpr int kSubSize = 16;
constexpr int kQHalf = 32;  // 6-bit quants are stored as l + 32 with l in -32..31
// Below this a sub-block (or the whole block) counts as all zero.
constexpr float kZeroEps = 1e-15f;

// Returns the signed quant of v on the grid 1/inv_step, clamped to -32..31.
int SignedQuant(float v, float inv_step) {
  return std::clamp(RoundNearestEven(inv_step * v), -kQHalf, kQHalf - 1);
}

// Sums, with weights v^2, the terms of the least-squares scale v ~= s * l for the grid
// 1/inv_step: *sum_vl = sum w*v*l and *sum_ll = sum w*l*l.
void GridSums(const float* v, float inv_step, float* sum_vl, float* sum_ll) {
  *sum_vl = 0;
  *sum_ll = 0;
  for (int i = 0; i < kSubSize; ++i) {
    const int l = SignedQuant(v[i], inv_step);
    const float w = v[i] * v[i];
    *sum_vl += w * v[i] * l;
    *sum_ll += w * l * l;
  }
}

// Writes the stored quants l + 32 of one sub-block on the grid 1/inv_step.
void StoreQuants(const float* v, float inv_step, int8_t* q) {
  for (int i = 0; i < kSubSize; ++i) {
    q[i] = static_cast<int8_t>(SignedQuant(v[i], inv_step) + kQHalf);
  }
}

// Chooses a scale for one 16-element sub-block: the grid that maps the signed value of
// largest magnitude to -32, then grids for -(32 + 0.1k), k = -9..9, keeping whichever
// maximises the explained weighted energy sum_vl^2 / sum_ll. Writes q = l + 32 and
// returns the least-squares scale of the kept grid (0 for an all-zero sub-block).
float FitSymmetricScale(const float* v, int8_t* q) {
  float amax = 0;
  float max = 0;
  for (int i = 0; i < kSubSize; ++i) {
    if (std::fabs(v[i]) > amax) {
      amax = std::fabs(v[i]);
      max = v[i];
    }
  }
  if (amax < kZeroEps) {
    std::fill(q, q + kSubSize, 0);
    return 0;
  }
  float inv_step = -kQHalf / max;
  float sum_vl, sum_ll;
  GridSums(v, inv_step, &sum_vl, &sum_ll);
  StoreQuants(v, inv_step, q);
  float scale = sum_ll != 0 ? sum_vl / sum_ll : 0.0f;
  float best = scale * sum_vl;
  for (int k = -9; k <= 9; ++k) {
    if (k == 0) continue;
    inv_step = -(kQHalf + 0.1f * k) / max;
    GridSums(v, inv_step, &sum_vl, &sum_ll);
    if (sum_ll > 0 && sum_vl * sum_vl > best * sum_ll) {
      StoreQuants(v, inv_step, q);
      scale = sum_vl / sum_ll;
      best = scale * sum_vl;
    }
  }
  return scale;
}

void QuantizeBlock(const float* x, BlockQ6K* y) {
  int8_t q[kQ6KBlockSize];
  float scales[kSubBlocks];
  float max_scale = 0;
  float max_abs_scale = 0;
  for (int j = 0; j < kSubBlocks; ++j) {
    scales[j] = FitSymmetricScale(x + kSubSize * j, q + kSubSize * j);
    if (std::fabs(scales[j]) > max_abs_scale) {
      max_abs_scale = std::fabs(scales[j]);
      max_scale = scales[j];
    }
  }
  if (max_abs_scale < kZeroEps) {
    std::memset(y, 0, sizeof(*y));  // fp16 zero is all-zero bits too
    return;
  }
  // The signed scale of largest magnitude maps to -128, so every code fits int8.
  const float inv = -128.0f / max_scale;
  y->d = Fp32ToFp16(1 / inv);
  for (int j = 0; j < kSubBlocks; ++j) {
    y->scales[j] = static_cast<int8_t>(std::min(127, RoundNearestEven(inv * scales[j])));
  }
  // Requantize against the scales as stored; a sub-block whose scale rounds to zero
  // keeps the quants of its fit.
  const float d = Fp16ToFp32(y->d);
  for (int j = 0; j < kSubBlocks; ++j) {
    const float step = d * y->scales[j];
    if (step == 0) continue;
    for (int i = 0; i < kSubSize; ++i) {
      const int l = std::clamp(RoundNearestEven(x[kSubSize * j + i] / step), -kQHalf, kQHalf - 1);
      q[kSubSize * j + i] = static_cast<int8_t>(l + kQHalf);
    }
  }
  for (int h = 0; h < 2; ++h) {
    const int8_t* qs = q + 128 * h;
    uint8_t* ql = y->ql + 64 * h;
    uint8_t* qh = y->qh + 32 * h;
    for (int l = 0; l < 32; ++l) {
      const uint8_t a = qs[l], b = qs[l + 32], c = qs[l + 64], e = qs[l + 96];
      ql[l] = (a & 0x0F) | static_cast<uint8_t>((c & 0x0F) << 4);
      ql[l + 32] = (b & 0x0F) | static_cast<uint8_t>((e & 0x0F) << 4);
      qh[l] = static_cast<uint8_t>((a >> 4) | ((b >> 4) << 2) | ((c >> 4) << 4) | ((e >> 4) << 6));
    }
  }
}

}  // namespace

void QuantizeRowQ6K(const float* x, BlockQ6K* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ6KBlockSize; ++b) QuantizeBlock(x + b * kQ6KBlockSize, y + b);
}

void DequantizeRowQ6K(const BlockQ6K* x, float* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ6KBlockSize; ++b) {
    const float d = Fp16ToFp32(x[b].d);
    for (int h = 0; h < 2; ++h) {
      const uint8_t* ql = x[b].ql + 64 * h;
      const uint8_t* qh = x[b].qh + 32 * h;
      const int8_t* sc = x[b].scales + 8 * h;
      float* yh = y + b * kQ6KBlockSize + 128 * h;
      for (int l = 0; l < 32; ++l) {
        // Quarter k of the half: nibble from ql[l] or ql[l+32], two bits from qh[l].
        const int q0 = ((ql[l] & 0x0F) | ((qh[l] >> 0) & 3) << 4) - kQHalf;
        const int q1 = ((ql[l + 32] & 0x0F) | ((qh[l] >> 2) & 3) << 4) - kQHalf;
        const int q2 = ((ql[l] >> 4) | ((qh[l] >> 4) & 3) << 4) - kQHalf;
        const int q3 = ((ql[l + 32] >> 4) | ((qh[l] >> 6) & 3) << 4) - kQHalf;
        const int s = l / 16;
        yh[l] = d * sc[s] * q0;
        yh[l + 32] = d * sc[s + 2] * q1;
        yh[l + 64] = d * sc[s + 4] * q2;
        yh[l + 96] = d * sc[s + 6] * q3;
      }
    }
  }
}

}  // namespace cpubrrr
