// The model `cpubrrr run` uses without -m: the project's tiny gpt-oss trained on the Brown
// corpus (docs/TRAINING.md), carried in the binary and written into the user's cache on
// first use.
#ifndef CPUBRRR_TOOLS_CPUBRRR_DEFAULT_MODEL_H_
#define CPUBRRR_TOOLS_CPUBRRR_DEFAULT_MODEL_H_

#include <string>

#include "absl/status/statusor.h"

namespace cpubrrr {

// What a user is told the default model is.
inline constexpr char kDefaultModelDescription[] =
    "cpubrrr's tiny gpt-oss (2.8M parameters, MXFP4) trained on the Brown corpus of 1961 "
    "American English: expect English-like sentences, not knowledge";

// Returns CacheDir()/models (./cpubrrr-models when there is no cache directory).
std::string ModelCacheDir();

// Returns the path of the default model, writing the embedded file first when the cache
// does not hold it yet (its name carries a hash of the bytes, so a new build's model
// never meets an old one's). When the cache cannot take it (a full disk, no write
// permission) it says so and returns a path to a copy in memory.
absl::StatusOr<std::string> EnsureDefaultModel();

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_DEFAULT_MODEL_H_
