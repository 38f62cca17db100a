// `cpubrrr serve`: the HTTP server over the engine of -m.
#ifndef CPUBRRR_TOOLS_CPUBRRR_SERVE_COMMAND_H_
#define CPUBRRR_TOOLS_CPUBRRR_SERVE_COMMAND_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/model/architecture.h"
#include "tools/cpubrrr/cli_options.h"

namespace cpubrrr {

// Listens, loads the model (the server answers /health with 503 meanwhile), serves until
// SIGINT or SIGTERM, then cancels running generations and returns.
absl::Status ServeCommand(const CliOptions& options, absl::Span<const Architecture> architectures);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_SERVE_COMMAND_H_
