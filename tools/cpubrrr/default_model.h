// The model `cpubrrr run` uses without -m: for now a synthetic gpt-oss-tiny with random
// weights, written on first use into the user's cache.
#ifndef CPUBRRR_TOOLS_CPUBRRR_DEFAULT_MODEL_H_
#define CPUBRRR_TOOLS_CPUBRRR_DEFAULT_MODEL_H_

#include <string>

#include "absl/status/statusor.h"

namespace cpubrrr {

// Returns CacheDir()/models (./cpubrrr-models when there is no cache directory).
std::string ModelCacheDir();

// Returns the gpt-oss tokenizer.json of the npm reference package that scripts/setup.sh
// installs into .refs/, looked up under $BUILD_WORKSPACE_DIRECTORY, the runfiles
// ($RUNFILES_DIR or the binary's .runfiles) and the working directory; NotFound (saying
// to run scripts/setup.sh) when none has it.
absl::StatusOr<std::string> FindReferenceTokenizer();

// Returns the path of the default model, writing it first (with a note on stderr) when
// it is not in the cache yet.
absl::StatusOr<std::string> EnsureDefaultModel();

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_DEFAULT_MODEL_H_
