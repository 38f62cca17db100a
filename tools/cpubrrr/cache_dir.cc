// CacheDir from the XDG base directory variables.
#include "tools/cpubrrr/cache_dir.h"

#include <cstdlib>

namespace cpubrrr {

std::string CacheDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/cpubrrr";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/cpubrrr";
  }
  return "";
}

}  // namespace cpubrrr
