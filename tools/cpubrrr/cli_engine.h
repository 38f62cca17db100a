// Loads the engine for a subcommand: resolves -m, shows load progress, names the model.
#ifndef CPUBRRR_TOOLS_CPUBRRR_CLI_ENGINE_H_
#define CPUBRRR_TOOLS_CPUBRRR_CLI_ENGINE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/engine/engine.h"
#include "runtime/model/architecture.h"
#include "runtime/model/model_options.h"
#include "tools/cpubrrr/cli_options.h"
#include "tools/cpubrrr/model_source.h"

namespace cpubrrr {

// Returns the GGUF for -m (see ResolveModelSource), telling on stderr when it is the
// default model, what it is.
absl::StatusOr<ModelSource> ResolveCliModel(const CliOptions& options);

// Returns the model's options from the flags: -t, -ub, -ctk/-ctv, --no-repack, the
// repack cache directory (--repack-cache, CacheDir()/repacked by default, none with
// --no-repack-cache), --no-page-in and --no-page-warmer.
ModelOptions CliModelOptions(const CliOptions& options);

// Tells on stderr how much of the model was repacked and where the copies live.
void ReportRepack(const ModelInfo& info);

// Returns the engine for `options` (-m, -t, -c) with `slots` sessions sharing -c, telling
// on stderr what is loading and, for the default model, what it is.
absl::StatusOr<std::unique_ptr<Engine>> OpenCliEngine(const CliOptions& options,
                                                      absl::Span<const Architecture> architectures,
                                                      uint32_t slots = 1);

// Returns the prompt of -p, the positional words, or the contents of -f; NotFound when
// the file cannot be read, InvalidArgument when none is given.
absl::StatusOr<std::string> ReadPrompt(const CliOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_CLI_ENGINE_H_
