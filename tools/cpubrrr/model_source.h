// Turns the -m argument into a GGUF path: a file, an Ollama name, or the default model.
#ifndef CPUBRRR_TOOLS_CPUBRRR_MODEL_SOURCE_H_
#define CPUBRRR_TOOLS_CPUBRRR_MODEL_SOURCE_H_

#include <string>

#include "absl/status/statusor.h"

namespace cpubrrr {

struct ModelSource {
  std::string path;
  bool default_model = false;  // no -m: the embedded tiny trained model
};

// Returns the GGUF for `model`: an existing file as is; otherwise an Ollama name resolved
// in OllamaStoreRoot(); empty: the default model (written on first use, see
// default_model.h). Fails with NotFound naming what was looked for.
absl::StatusOr<ModelSource> ResolveModelSource(const std::string& model);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_MODEL_SOURCE_H_
