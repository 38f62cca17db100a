// Runs a measurement in a forked child so its memory does not count in the caller's peak
// RSS (getrusage's ru_maxrss only grows).
#ifndef CPUBRRR_TOOLS_CPUBRRR_RUN_IN_CHILD_H_
#define CPUBRRR_TOOLS_CPUBRRR_RUN_IN_CHILD_H_

#include <functional>
#include <vector>

#include "absl/status/statusor.h"

namespace cpubrrr {

// Forks, runs `fn` in the child and returns the numbers it returned. Fails with Internal
// when the child cannot be started or dies before returning them. Call it while this
// process has one thread: a forked child holds only the thread that forked.
absl::StatusOr<std::vector<double>> RunInChild(const std::function<std::vector<double>()>& fn);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_RUN_IN_CHILD_H_
