// gpt-oss's entry in the architecture registry: a gpt-oss GGUF (llama.cpp's or Ollama's
// naming) opened as a Model.
#ifndef CPUBRRR_MODELS_GPT_OSS_GPT_OSS_MODEL_H_
#define CPUBRRR_MODELS_GPT_OSS_GPT_OSS_MODEL_H_

#include "runtime/model/architecture.h"

namespace cpubrrr {

// Returns "gpt-oss" (Ollama's "gptoss" too), harmony chat, the shared MoE pass with gpt-oss's spec.
Architecture GptOssArchitecture();

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_GPT_OSS_GPT_OSS_MODEL_H_
