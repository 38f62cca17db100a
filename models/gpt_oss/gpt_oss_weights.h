// Binds gpt-oss tensors under llama.cpp's names and Ollama's alternatives.
#ifndef CPUBRRR_MODELS_GPT_OSS_GPT_OSS_WEIGHTS_H_
#define CPUBRRR_MODELS_GPT_OSS_GPT_OSS_WEIGHTS_H_

#include "absl/status/statusor.h"
#include "models/common/model_config.h"
#include "models/common/moe_weights.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {

// Binds every gpt-oss tensor of `file` with the shapes `config` implies, accepting
// Ollama's `attn_out`, `attn_sinks` (no `.weight`) and `ffn_norm` names. Fails with the
// first missing, mis-shaped or unsupported tensor.
absl::StatusOr<ModelWeights> BindGptOssWeights(const GgufFile& file, const ModelConfig& config);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_GPT_OSS_GPT_OSS_WEIGHTS_H_
