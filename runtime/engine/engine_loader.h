// Opens a GGUF, picks the architecture factory, builds the tokenizer and the engine.
#ifndef CPUBRRR_RUNTIME_ENGINE_ENGINE_LOADER_H_
#define CPUBRRR_RUNTIME_ENGINE_ENGINE_LOADER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/model_factory.h"

namespace cpubrrr {

struct LoadEngineOptions {
  EngineOptions engine;
  ModelLoadOptions model;
};

// Loads the model at `path` with the factory of its architecture. Fails as OpenGguf does for
// a missing or malformed file, with InvalidArgument for an architecture cpubrrr does not know, and
// Unimplemented for one known but not among `factories` (not linked into this binary).
absl::StatusOr<std::unique_ptr<Engine>> LoadEngine(const std::string& path,
                                                   absl::Span<const ArchitectureFactory> factories,
                                                   const LoadEngineOptions& options);

// Returns the factory for `architecture`, with the errors LoadEngine gives.
absl::StatusOr<const ArchitectureFactory*> FindFactory(
    const std::string& architecture, absl::Span<const ArchitectureFactory> factories);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_ENGINE_LOADER_H_
