// `cpubrrr run` (one answer) and `cpubrrr chat` (interactive turns).
#ifndef CPUBRRR_TOOLS_CPUBRRR_GENERATE_COMMANDS_H_
#define CPUBRRR_TOOLS_CPUBRRR_GENERATE_COMMANDS_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/model/architecture.h"
#include "tools/cpubrrr/cli_options.h"

namespace cpubrrr {

// Answers the prompt: the answer on stdout, reasoning and timings on stderr.
absl::Status RunCommand(const CliOptions& options, absl::Span<const Architecture> architectures);

// Reads user turns from stdin until EOF or /exit; /reset starts a new conversation.
absl::Status ChatCommand(const CliOptions& options, absl::Span<const Architecture> architectures);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_GENERATE_COMMANDS_H_
