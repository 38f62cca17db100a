// Physical cores from the affinity mask and sysfs thread siblings.
#include "runtime/threading/physical_cores.h"

#include <sched.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <thread>

namespace cpubrrr {

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
    std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) +
                     "/topology/thread_siblings_list");
    std::string list;
    if (!std::getline(in, list)) return logical;
    while (!list.empty() && (list.back() == ' ' || list.back() == '\r')) list.pop_back();
    siblings.push_back(list);
  }
  return siblings.empty() ? logical : CountCores(siblings);
}

}  // namespace cpubrrr
