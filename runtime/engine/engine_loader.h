// Opens a GGUF, picks its architecture's entry, builds the model, tokenizer and engine.
#ifndef CPUBRRR_RUNTIME_ENGINE_ENGINE_LOADER_H_
#define CPUBRRR_RUNTIME_ENGINE_ENGINE_LOADER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/engine/engine.h"
#include "runtime/model/architecture.h"
#include "runtime/model/model_options.h"

namespace cpubrrr {

struct LoadEngineOptions {
  EngineOptions engine;
  ModelOptions model;
};

// Loads the model at `path` with the entry of its architecture among `architectures`
// (the file is opened once), its tokenizer, and an engine in the architecture's chat
// format. Fails as OpenModelFile does for a missing or malformed file, with Unimplemented
// for an architecture not among `architectures`.
absl::StatusOr<std::unique_ptr<Engine>> LoadEngine(const std::string& path,
                                                   absl::Span<const Architecture> architectures,
                                                   const LoadEngineOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_ENGINE_LOADER_H_
