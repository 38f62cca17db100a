// Scalar f32 helper ops of the forward pass (RMSNorm, RoPE tables, activations). To be
// replaced by kernels/f32 once it lands on main.
#ifndef CPUBRRR_MODELS_COMMON_F32_OPS_H_
#define CPUBRRR_MODELS_COMMON_F32_OPS_H_

#include <cstdint>

#include "models/common/model_config.h"

namespace cpubrrr {

// Writes out[i] = x[i] / sqrt(mean(x^2) + eps) * weight[i] for i < n, summing squares in
// double as ggml does. `out` may alias `x`.
void RmsNormMul(const float* x, const float* weight, int64_t n, float eps, float* out);

// Writes the head_dim/2 rotation cosines and sines of position `pos` as ggml's rope
// cache computes them (angles by repeated f32 multiplication, YaRN ramp and magnitude
// factor when rope.yarn).
void RopeCosSin(const RopeConfig& rope, int head_dim, int pos, float* cos, float* sin);

// Rotates NeoX pairs (i, i + head_dim/2) of `head` in place.
void ApplyRope(float* head, int head_dim, const float* cos, const float* sin);

// Returns gpt-oss's clamped SwiGLU: min(g,7) * sigmoid(1.702 min(g,7)) * (clamp(u,-7,7) + 1).
float SwigluOai(float g, float u);

// Returns silu(g) * u.
float Swiglu(float g, float u);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_F32_OPS_H_
