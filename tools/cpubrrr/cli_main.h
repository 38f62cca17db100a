// The driver's main as a library, so each binary chooses the architectures it links.
#ifndef CPUBRRR_TOOLS_CPUBRRR_CLI_MAIN_H_
#define CPUBRRR_TOOLS_CPUBRRR_CLI_MAIN_H_

#include "absl/types/span.h"
#include "runtime/model/architecture.h"

namespace cpubrrr {

// Runs the cpubrrr command line with the given architectures. Returns the exit code:
// 0, or 1 after printing one "cpubrrr: ..." line for any error.
int CliMain(int argc, char** argv, absl::Span<const Architecture> architectures);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_CLI_MAIN_H_
