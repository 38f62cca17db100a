// `cpubrrr perplexity`: perplexity of a text file in chunks, and KL divergence against a
// base run's logits, with llama-perplexity's flags, output and base-logits files.
#ifndef CPUBRRR_TOOLS_CPUBRRR_PERPLEXITY_COMMAND_H_
#define CPUBRRR_TOOLS_CPUBRRR_PERPLEXITY_COMMAND_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/model/architecture.h"
#include "tools/cpubrrr/cli_options.h"

namespace cpubrrr {

absl::Status PerplexityCommand(const CliOptions& options, absl::Span<const Architecture> architectures);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_PERPLEXITY_COMMAND_H_
