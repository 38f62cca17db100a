// /proc/cpuinfo and sysfs topology readers.
#include "tools/cpubrrr/machine_info.h"

#include <sched.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
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

int CountCores(const std::vector<std::string>& sibling_lists) {
  return std::set<std::string>(sibling_lists.begin(), sibling_lists.end()).size();
}

int PhysicalCoreCount() {
  const int logical = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return logical;
  std::vector<std::string> siblings;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask)) continue;
    std::ifstream in(absl::StrCat("/sys/devices/system/cpu/cpu", cpu, "/topology/thread_siblings_list"));
    std::string list;
    if (!std::getline(in, list)) return logical;
    siblings.emplace_back(absl::StripAsciiWhitespace(list));
  }
  return siblings.empty() ? logical : CountCores(siblings);
}

}  // namespace cpubrrr
