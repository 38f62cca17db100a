// Scalar f32 ops following ggml-cpu's reference semantics (ops.cpp, vec.h).
#include "models/common/f32_ops.h"

#include <algorithm>
#include <cmath>

namespace cpubrrr {

void RmsNormMul(const float* x, const float* weight, int64_t n, float eps, float* out) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i] * x[i]);
  const float scale = 1.0f / std::sqrt(static_cast<float>(sum / n) + eps);
  for (int64_t i = 0; i < n; ++i) out[i] = (x[i] * scale) * weight[i];
}

void RopeCosSin(const RopeConfig& rope, int head_dim, int pos, float* cos, float* sin) {
  const float theta_scale = std::pow(rope.freq_base, -2.0f / head_dim);
  float low = 0, high = 0, mscale = rope.attn_factor;
  const float freq_scale = rope.yarn ? 1.0f / rope.factor : 1.0f;
  if (rope.yarn) {
    auto corr = [&](float beta) {
      return head_dim * std::log(rope.original_context / (beta * 2 * static_cast<float>(M_PI))) /
             (2 * std::log(rope.freq_base));
    };
    low = std::max(0.0f, std::floor(corr(rope.beta_fast)));
    high = std::min(head_dim - 1.0f, std::ceil(corr(rope.beta_slow)));
    mscale *= 1.0f + 0.1f * std::log(1.0f / freq_scale);
  }
  float theta_ex = static_cast<float>(pos);
  for (int i = 0; i < head_dim / 2; ++i) {
    const float theta_in = freq_scale * theta_ex;
    float theta = theta_in;
    if (rope.yarn) {
      const float y = (i - low) / std::max(0.001f, high - low);
      const float mix = 1 - std::min(1.0f, std::max(0.0f, y));
      theta = theta_in * (1 - mix) + theta_ex * mix;
    }
    cos[i] = std::cos(theta) * mscale;
    sin[i] = std::sin(theta) * mscale;
    theta_ex *= theta_scale;
  }
}

void ApplyRope(float* head, int head_dim, const float* cos, const float* sin) {
  const int half = head_dim / 2;
  for (int i = 0; i < half; ++i) {
    const float a = head[i], b = head[i + half];
    head[i] = a * cos[i] - b * sin[i];
    head[i + half] = a * sin[i] + b * cos[i];
  }
}

float SwigluOai(float g, float u) {
  constexpr float kLimit = 7.0f, kAlpha = 1.702f;  // gpt-oss's published constants
  const float x = std::min(g, kLimit);
  const float y = std::clamp(u, -kLimit, kLimit);
  return x / (1.0f + std::exp(kAlpha * -x)) * (y + 1.0f);
}

float Swiglu(float g, float u) { return g / (1.0f + std::exp(-g)) * u; }

}  // namespace cpubrrr
