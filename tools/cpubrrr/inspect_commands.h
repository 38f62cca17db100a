// `cpubrrr logits`, `cpubrrr tokenize` and `cpubrrr models`: look at a model or the store.
#ifndef CPUBRRR_TOOLS_CPUBRRR_INSPECT_COMMANDS_H_
#define CPUBRRR_TOOLS_CPUBRRR_INSPECT_COMMANDS_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/model/architecture.h"
#include "tools/cpubrrr/cli_options.h"

namespace cpubrrr {

// Prints the next-token logits after the raw prompt (specials parsed): the --top largest
// (or all) as "ID LOGIT PIECE" lines, or as JSON with --json.
absl::Status LogitsCommand(const CliOptions& options, absl::Span<const Architecture> architectures);

// Prints the tokens of the text as "ID -> 'PIECE'" lines, or only "[ID, ...]" with --ids,
// using the tokenizer in the GGUF (no weights are loaded).
absl::Status TokenizeCommand(const CliOptions& options);

// Prints the models in Ollama's store: name, size, GGUF path.
absl::Status ModelsCommand(const CliOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_INSPECT_COMMANDS_H_
