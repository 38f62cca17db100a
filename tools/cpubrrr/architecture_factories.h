// Architecture factories over the forward passes in models/: one per architecture, for
// binaries that link only that model, and the all-in-one list.
#ifndef CPUBRRR_TOOLS_CPUBRRR_ARCHITECTURE_FACTORIES_H_
#define CPUBRRR_TOOLS_CPUBRRR_ARCHITECTURE_FACTORIES_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/model/model.h"
#include "models/common/model_config.h"
#include "models/common/moe_model.h"
#include "runtime/engine/model_factory.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {

// A models/ constructor such as NewGptOssModel or NewQwen3MoeModel.
using NewModelFn = absl::StatusOr<std::unique_ptr<Model>> (*)(GgufFile file, ModelConfig config,
                                                             const ModelOptions& options);

// Returns the factory for `architecture` that opens the file, reads its config and calls
// `new_model`.
ArchitectureFactory SingleArchitectureFactory(const std::string& architecture, NewModelFn new_model);

// Returns ModelOptions for `options` (threads).
ModelOptions ToModelOptions(const ModelLoadOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_ARCHITECTURE_FACTORIES_H_
