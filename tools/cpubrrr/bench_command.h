// `cpubrrr bench`: llama-bench's pp and tg tests at each thread count, with the read
// bandwidth ceiling of each tg row.
#ifndef CPUBRRR_TOOLS_CPUBRRR_BENCH_COMMAND_H_
#define CPUBRRR_TOOLS_CPUBRRR_BENCH_COMMAND_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/model/architecture.h"
#include "tools/cpubrrr/cli_options.h"

namespace cpubrrr {

// Measures the read bandwidth at each thread count (in a child process, so the buffer is
// not in the peak RSS), then for each thread count loads the model, runs every -p and -n
// test (one warm-up run, -r timed runs) and unloads it; prints the markdown report or JSON
// rows to stdout and progress to stderr.
absl::Status BenchCommand(const CliOptions& options, absl::Span<const Architecture> architectures);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_BENCH_COMMAND_H_
