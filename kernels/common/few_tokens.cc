// The per-CPU-class choice of kernels/common/few_tokens.h.
#include "kernels/common/few_tokens.h"

#include <cstdlib>
#include <string>

#include "kernels/common/cpu_features.h"

namespace cpubrrr {
namespace {

LaneTileChoice Choose() {
  const char* set = std::getenv("CPUBRRR_LANE_TILE_FROM");
  std::string ignored;
  if (set != nullptr) {
    char* end = nullptr;
    const long n = std::strtol(set, &end, 10);
    if (end != set && *end == '\0' && n >= 1 && n <= static_cast<long>(kAvx512FewTokensMax + 1)) {
      return {static_cast<size_t>(n), "CPUBRRR_LANE_TILE_FROM"};
    }
    ignored = std::string(" (CPUBRRR_LANE_TILE_FROM=") + set + " ignored: not 1-" +
              std::to_string(kAvx512FewTokensMax + 1) + ")";
  }
  const std::string vendor = CpuVendor();
  if (vendor == "GenuineIntel") return {5, vendor + ignored};
  return {4, (vendor.empty() ? std::string("default") : vendor) + ignored};
}

}  // namespace

const LaneTileChoice& Avx512LaneTileChoice() {
  static const LaneTileChoice choice = Choose();
  return choice;
}

}  // namespace cpubrrr
