// RoPE cos/sin table construction (scalar; runs once per token).
#include "kernels/f32/rope_table.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace cpubrrr {
namespace {

// Returns the pair index (fractional) whose wavelength fits n_ctx_orig / beta turns.
float CorrDim(int n_dims, int n_ctx_orig, float beta, float freq_base) {
  const float turns = static_cast<float>(n_ctx_orig) / (beta * 2 * std::numbers::pi_v<float>);
  return static_cast<float>(n_dims) * std::log(turns) / (2 * std::log(freq_base));
}

}  // namespace

void YarnCorrDims(int n_dims, int n_ctx_orig, float freq_base, float beta_fast,
                  float beta_slow, float* low, float* high) {
  *low = std::max(0.0f, std::floor(CorrDim(n_dims, n_ctx_orig, beta_fast, freq_base)));
  *high = std::min(static_cast<float>(n_dims - 1),
                   std::ceil(CorrDim(n_dims, n_ctx_orig, beta_slow, freq_base)));
}

RopeParams PlainRopeParams(int n_dims, float freq_base) {
  return RopeParams{n_dims, freq_base, 1.0f, 0.0f, 1.0f, 0.0f, 0.0f};
}

RopeParams YarnRopeParams(int n_dims, float freq_base, float factor, int n_ctx_orig,
                          float beta_fast, float beta_slow, float rope_attn_factor) {
  RopeParams p{n_dims, freq_base, 1.0f / factor, 1.0f, 1.0f, 0.0f, 0.0f};
  YarnCorrDims(n_dims, n_ctx_orig, freq_base, beta_fast, beta_slow, &p.corr_low,
               &p.corr_high);
  // llama.cpp's context setup, step by step in float so the product rounds the same.
  const float mscale = factor <= 1.0f ? 1.0f : 0.1f * std::log(factor) + 1.0f;
  p.attn_factor = mscale;
  p.attn_factor *= 1.0f / (1.0f + 0.1f * std::log(factor));
  p.attn_factor *= rope_attn_factor;
  return p;
}

void RopeTable(const RopeParams& p, int64_t pos, float* cos, float* sin) {
  const float step = std::pow(p.freq_base, -2.0f / static_cast<float>(p.n_dims));
  float magnitude = p.attn_factor;
  if (p.ext_factor != 0.0f) magnitude *= 1.0f + 0.1f * std::log(1.0f / p.freq_scale);
  const float ramp_width = std::max(0.001f, p.corr_high - p.corr_low);
  float theta_extrap = static_cast<float>(pos);
  for (int i = 0; i < p.n_dims / 2; ++i) {
    const float theta_interp = p.freq_scale * theta_extrap;
    float theta = theta_interp;
    if (p.ext_factor != 0.0f) {
      // Pairs below corr_low keep the original (extrapolated) angle, pairs above
      // corr_high are fully interpolated, a linear ramp in between.
      const float y = (static_cast<float>(i) - p.corr_low) / ramp_width;
      const float mix = (1.0f - std::min(1.0f, std::max(0.0f, y))) * p.ext_factor;
      theta = theta_interp * (1.0f - mix) + theta_extrap * mix;
    }
    cos[i] = std::cos(theta) * magnitude;
    sin[i] = std::sin(theta) * magnitude;
    theta_extrap *= step;
  }
}

}  // namespace cpubrrr
