// Where the driver keeps what it makes for the user: the default model, repacked weights.
#ifndef CPUBRRR_TOOLS_CPUBRRR_CACHE_DIR_H_
#define CPUBRRR_TOOLS_CPUBRRR_CACHE_DIR_H_

#include <string>

namespace cpubrrr {

// Returns $XDG_CACHE_HOME/cpubrrr, else $HOME/.cache/cpubrrr; empty when neither is set.
std::string CacheDir();

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_CACHE_DIR_H_
