// Scale-and-min fit of K-quant super-blocks (ggml's weighted grid search), for Q4_K and Q5_K.
#include "quant/kquant_fit.h"

#include <algorithm>
#include <cmath>

#include "quant/fp16.h"
#include "quant/rounding.h"

namespace cpubrrr {
namespace {

constexpr int kSubBlocks = 8;
constexpr int kSubSize = 32;
constexpr int kScaleMax = 63;  // 6-bit scales and mins

// Returns the quant of v - lo on a grid of 1/inv_step, clamped to 0..q_max.
int QuantOnGrid(float v, float lo, float inv_step, int q_max) {
  return std::clamp(RoundNearestEven(inv_step * (v - lo)), 0, q_max);
}

// Fits v ~= scale * q + lo with q in 0..q_max and lo <= 0 for one 32-element sub-block,
// minimising the weighted squared error. Starts from the plain min/max grid, then tries
// the search's grids, each refit by least squares. Writes the quants to q, -lo to
// *neg_lo and returns scale. Every accepted grid also moves `lo`, which shifts the grids
// tried after it; the reference does the same.
float FitScaleMin(const float* v, const float* w, const ScaleMinSearch& search, uint8_t* q,
                  float* neg_lo) {
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
  const int q_max = search.q_max;
  float inv_step = q_max / (hi - lo);
  float scale = 1 / inv_step;
  float best_err = 0;
  for (int i = 0; i < kSubSize; ++i) {
    q[i] = static_cast<uint8_t>(QuantOnGrid(v[i], lo, inv_step, q_max));
    const float diff = scale * q[i] + lo - v[i];
    best_err += w[i] * (diff * diff);
  }
  constexpr float kOffsetStep = 0.1f;
  uint8_t trial[kSubSize];
  for (int s = 0; s <= search.steps; ++s) {
    inv_step = (search.first_offset + kOffsetStep * s + q_max) / (hi - lo);
    float sum_l = 0, sum_l2 = 0, sum_xl = 0;
    for (int i = 0; i < kSubSize; ++i) {
      const int l = QuantOnGrid(v[i], lo, inv_step, q_max);
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

}  // namespace

void QuantizeScaleMinSuperBlock(const float* x, const ScaleMinSearch& search, uint8_t sc[8],
                                uint8_t m[8], uint16_t* d, uint16_t* dmin, uint8_t q[256]) {
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
    scales[j] = FitScaleMin(xs, w, search, q + kSubSize * j, &mins[j]);
    if (scales[j] > max_scale) max_scale = scales[j];
    if (mins[j] > max_min) max_min = mins[j];
  }
  const float inv_scale = max_scale > 0 ? kScaleMax / max_scale : 0.0f;
  const float inv_min = max_min > 0 ? kScaleMax / max_min : 0.0f;
  for (int j = 0; j < kSubBlocks; ++j) {
    sc[j] = SixBitCode(scales[j], inv_scale);
    m[j] = SixBitCode(mins[j], inv_min);
  }
  *d = Fp32ToFp16(max_scale / kScaleMax);
  *dmin = Fp32ToFp16(max_min / kScaleMax);

  // Requantize against the scales as stored; a sub-block whose scale rounds to zero
  // keeps the quants of its fit.
  const float df = Fp16ToFp32(*d);
  const float dminf = Fp16ToFp32(*dmin);
  for (int j = 0; j < kSubBlocks; ++j) {
    const float step = df * sc[j];
    if (step == 0) continue;
    const float offset = dminf * m[j];
    for (int i = 0; i < kSubSize; ++i) {
      const int l = RoundNearestEven((x[kSubSize * j + i] + offset) / step);
      q[kSubSize * j + i] = static_cast<uint8_t>(std::clamp(l, 0, search.q_max));
    }
  }
}

}  // namespace cpubrrr
