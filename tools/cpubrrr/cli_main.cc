// Parses the command line and dispatches to the subcommand.
#include "tools/cpubrrr/cli_main.h"

#include <signal.h>

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "tools/cpubrrr/bench_command.h"
#include "tools/cpubrrr/cli_options.h"
#include "tools/cpubrrr/generate_commands.h"
#include "tools/cpubrrr/inspect_commands.h"
#include "tools/cpubrrr/perplexity_command.h"
#include "tools/cpubrrr/serve_command.h"

namespace cpubrrr {
namespace {

absl::Status Dispatch(const CliOptions& options, absl::Span<const Architecture> architectures) {
  switch (options.command) {
    case Command::kHelp:
      break;
    case Command::kRun:
      return RunCommand(options, architectures);
    case Command::kChat:
      return ChatCommand(options, architectures);
    case Command::kLogits:
      return LogitsCommand(options, architectures);
    case Command::kTokenize:
      return TokenizeCommand(options);
    case Command::kModels:
      return ModelsCommand(options);
    case Command::kBench:
      return BenchCommand(options, architectures);
    case Command::kServe:
      return ServeCommand(options, architectures);
    case Command::kPerplexity:
      return PerplexityCommand(options, architectures);
  }
  return absl::OkStatus();
}

}  // namespace

int CliMain(int argc, char** argv, absl::Span<const Architecture> architectures) {
  // A file-size limit (ulimit -f) makes an oversized write fail with EFBIG, which every
  // writer reports, instead of killing the process with a core dump.
  signal(SIGXFSZ, SIG_IGN);
  const std::vector<std::string> args(argv + 1, argv + argc);
  absl::StatusOr<CliOptions> options = ParseCommandLine(args);
  absl::Status status = options.status();
  if (status.ok() && (options->help || options->command == Command::kHelp)) {
    std::fputs(UsageText(options->command).c_str(), stdout);
    return 0;
  }
  if (status.ok()) status = Dispatch(*options, architectures);
  if (status.ok()) return 0;
  std::fflush(stdout);
  const std::string message = absl::StrReplaceAll(status.message(), {{"\n", " "}});
  std::fprintf(stderr, "cpubrrr: %s\n", message.c_str());
  return 1;
}

}  // namespace cpubrrr
