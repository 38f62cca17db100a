// Model hyperparameters of gpt-oss and qwen3moe read from GGUF metadata.
#ifndef CPUBRRR_MODELS_COMMON_MODEL_CONFIG_H_
#define CPUBRRR_MODELS_COMMON_MODEL_CONFIG_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/model/model_arch.h"

namespace cpubrrr {

// Rotary embedding parameters (NeoX half-split pairs). With `yarn` false the angles are
// pos * base^(-2i/d) unscaled; with it, ggml's YaRN ramp between interpolated and
// extrapolated angles and the magnitude factor `mscale` (MODEL_SPEC.md section 2).
struct RopeConfig {
  float freq_base = 10000.0f;
  bool yarn = false;
  float factor = 1.0f;            // rope.scaling.factor (context extension)
  uint32_t original_context = 0;  // rope.scaling.original_context_length
  float beta_fast = 32.0f;
  float beta_slow = 1.0f;
  float attn_factor = 1.0f;       // rope.scaling.attn_factor, multiplies cos and sin
};

// Every dimension the forward pass needs.
struct ModelConfig {
  ModelArch arch = ModelArch::kGptOss;
  std::string architecture;  // normalized: "gpt-oss" or "qwen3moe"
  std::string key_prefix;    // as written in the file: "gpt-oss", "gptoss" or "qwen3moe"
  bool ollama_naming = false;  // Ollama's gptoss blob layout (MODEL_SPEC.md section 2)
  std::string name;
  uint32_t n_layer = 0;
  uint32_t n_embd = 0;
  uint32_t n_head = 0;
  uint32_t n_head_kv = 0;
  uint32_t head_dim = 0;
  uint32_t n_expert = 0;
  uint32_t n_expert_used = 0;
  uint32_t n_ff_exp = 0;
  uint32_t n_vocab = 0;          // rows of token_embd
  uint32_t n_ctx_train = 0;
  uint32_t sliding_window = 0;   // 0: every layer attends to the whole context
  float rms_eps = 1e-6f;
  RopeConfig rope;

  uint32_t q_dim() const { return n_head * head_dim; }
  uint32_t kv_dim() const { return n_head_kv * head_dim; }
  // Returns true when layer `il` attends only to the last `sliding_window` positions
  // (gpt-oss: even layers, as llama.cpp's swa pattern 2).
  bool IsSlidingLayer(uint32_t il) const { return sliding_window != 0 && il % 2 == 0; }
};

// Reads the config of a gpt-oss (keys `gpt-oss.*` or Ollama's `gptoss.*`) or qwen3moe
// file. Ollama's gpt-oss blobs lack `expert_feed_forward_length` (taken from
// ffn_gate_exps ne[1]) and the YaRN keys (gpt-oss's published values are used: factor
// 32, original context 4096, beta 32 / 1). Fails with InvalidArgument naming the key for
// a missing or zero dimension, Unimplemented for another architecture.
absl::StatusOr<ModelConfig> ReadModelConfig(const GgufFile& file);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_MODEL_CONFIG_H_
