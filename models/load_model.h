// Opens any supported GGUF model file by its general.architecture.
#ifndef CPUBRRR_MODELS_LOAD_MODEL_H_
#define CPUBRRR_MODELS_LOAD_MODEL_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/model/model.h"
#include "models/common/moe_model.h"

namespace cpubrrr {

// Maps `path` and returns its gpt-oss (`gpt-oss` / Ollama `gptoss`) or qwen3moe model.
// Errors: the reader's for a malformed file (with a hint to `ollama pull` again for
// Ollama's pre-October-2025 gpt-oss blobs, whose MXFP4 tensors carry type id 4);
// Unimplemented for another architecture; the binder's for a missing, mis-shaped or
// unsupported tensor.
absl::StatusOr<std::unique_ptr<Model>> LoadModel(const std::string& path,
                                                 const ModelOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_LOAD_MODEL_H_
