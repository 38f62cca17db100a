// The /proc/cpuinfo reader.
#include "tools/cpubrrr/machine_info.h"

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"

namespace cpubrrr {

std::string CpuModelNameFrom(const std::string& cpuinfo) {
  for (absl::string_view line : absl::StrSplit(cpuinfo, '\n')) {
    if (!absl::StartsWith(line, "model name")) continue;
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    const absl::string_view name = absl::StripAsciiWhitespace(line.substr(colon + 1));
    if (!name.empty()) return std::string(name);
  }
  return "unknown CPU";
}

std::string CpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::ostringstream text;
  text << in.rdbuf();
  return CpuModelNameFrom(text.str());
}

}  // namespace cpubrrr
