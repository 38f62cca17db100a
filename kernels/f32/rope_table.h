// RoPE cos/sin tables for one position: plain RoPE and YaRN, matching llama.cpp (ggml).
#ifndef CPUBRRR_KERNELS_F32_ROPE_TABLE_H_
#define CPUBRRR_KERNELS_F32_ROPE_TABLE_H_

#include <cstddef>
#include <cstdint>

namespace cpubrrr {

// RoPE settings in ggml's terms (ggml_rope_ext's arguments after llama.cpp's context
// setup). Pair i < n_dims / 2 turns by theta_i = pos * freq_base^(-2i / n_dims).
struct RopeParams {
  int n_dims;         // rotated dimensions (the head size here); even, >= 2
  float freq_base;    // rope.freq_base, e.g. 150000 (gpt-oss), 1e6 (Qwen3)
  float freq_scale;   // 1 / YaRN factor; 1 without scaling
  float ext_factor;   // YaRN ramp weight: 1 for YaRN, 0 turns YaRN off
  float attn_factor;  // multiplies cos and sin (llama.cpp's cparams.yarn_attn_factor)
  float corr_low;     // first pair the YaRN ramp interpolates (YarnCorrDims)
  float corr_high;    // last pair of the ramp (YarnCorrDims)
};

// Computes the YaRN correction range as ggml_rope_yarn_corr_dims does, in float:
// corr(b) = n_dims * ln(n_ctx_orig / (2 pi b)) / (2 ln freq_base),
// *low = max(0, floor(corr(beta_fast))), *high = min(n_dims - 1, ceil(corr(beta_slow))).
void YarnCorrDims(int n_dims, int n_ctx_orig, float freq_base, float beta_fast,
                  float beta_slow, float* low, float* high);

// Returns the parameters of unscaled RoPE (Qwen3): freq_scale 1, no YaRN, no magnitude.
RopeParams PlainRopeParams(int n_dims, float freq_base);

// Returns the YaRN parameters llama.cpp derives from GGUF metadata (rope.scaling.factor,
// original_context_length, yarn beta_fast / beta_slow, rope.scaling.attn_factor which is
// 1 when absent): freq_scale = 1 / factor, ext_factor 1, and attn_factor =
// mscale(factor) / (1 + 0.1 ln factor) * rope_attn_factor, where mscale(f) =
// 1 + 0.1 ln f for f > 1. The table then multiplies by (1 + 0.1 ln factor) again, so the
// net magnitude is 1 + 0.1 ln factor as in MODEL_SPEC.md section 2. Precondition: factor > 0.
RopeParams YarnRopeParams(int n_dims, float freq_base, float factor, int n_ctx_orig,
                          float beta_fast, float beta_slow, float rope_attn_factor);

// Writes cos[i] and sin[i] of the angle of pair i at position `pos`, for i < n_dims / 2,
// scaled by the magnitude factor. Follows ggml's float evaluation order (the angle is a
// running product by freq_base^(-2 / n_dims), cosf / sinf), so tables agree with
// llama.cpp's to float rounding of the YaRN blend.
void RopeTable(const RopeParams& p, int64_t pos, float* cos, float* sin);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_ROPE_TABLE_H_
