// qwen3moe's entry in the architecture registry: a qwen3moe GGUF (Qwen3-30B-A3B and
// relatives) opened as a Model.
#ifndef CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_MODEL_H_
#define CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_MODEL_H_

#include "runtime/model/architecture.h"

namespace cpubrrr {

// Returns "qwen3moe", ChatML chat (Qwen3-Coder's where its template says), the shared MoE pass
// with qwen3moe's spec.
Architecture Qwen3MoeArchitecture();

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_QWEN3MOE_QWEN3MOE_MODEL_H_
