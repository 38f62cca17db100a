// Binds qwen3moe tensors (Qwen3-30B-A3B layout) by llama.cpp's names.
#ifndef CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_WEIGHTS_H_
#define CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_WEIGHTS_H_

#include "absl/status/statusor.h"
#include "models/common/model_config.h"
#include "models/common/moe_weights.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {

// Binds every qwen3moe tensor of `file` with the shapes `config` implies; `output.weight`
// falls back to `token_embd.weight` when the file ties them. Fails with the first
// missing, mis-shaped or unsupported tensor.
absl::StatusOr<ModelWeights> BindQwen3MoeWeights(const GgufFile& file, const ModelConfig& config);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_WEIGHTS_H_
