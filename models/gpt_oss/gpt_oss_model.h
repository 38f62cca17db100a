// Opens a gpt-oss GGUF (llama.cpp's or Ollama's naming) as a Model.
#ifndef CPUBRRR_MODELS_GPT_OSS_GPT_OSS_MODEL_H_
#define CPUBRRR_MODELS_GPT_OSS_GPT_OSS_MODEL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/model/model.h"
#include "models/common/model_config.h"
#include "models/common/moe_model.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {

// Binds `file`'s gpt-oss tensors and returns the model that owns the file.
// Precondition: config was read from `file` and config.arch is kGptOss.
absl::StatusOr<std::unique_ptr<Model>> NewGptOssModel(GgufFile file, ModelConfig config,
                                                      const ModelOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_GPT_OSS_GPT_OSS_MODEL_H_
