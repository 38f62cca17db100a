// Every architecture in models/, and opening any supported GGUF model file with them.
#ifndef CPUBRRR_MODELS_LOAD_MODEL_H_
#define CPUBRRR_MODELS_LOAD_MODEL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/model/architecture.h"
#include "runtime/model/model.h"
#include "runtime/model/model_options.h"

namespace cpubrrr {

// Returns the registry of every architecture models/ implements: gpt-oss (Ollama's
// `gptoss` too) and qwen3moe.
std::vector<Architecture> AllArchitectures();

// Maps `path` and returns its model (OpenModel over AllArchitectures). Errors: the
// reader's for a malformed file (with a hint to `ollama pull` again for Ollama's
// pre-October-2025 gpt-oss blobs, whose MXFP4 tensors carry type id 4); Unimplemented for
// another architecture; the binder's for a missing, mis-shaped or unsupported tensor.
absl::StatusOr<std::unique_ptr<Model>> LoadModel(const std::string& path, const ModelOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_LOAD_MODEL_H_
