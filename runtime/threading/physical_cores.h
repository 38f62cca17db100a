// How many physical cores this process may run on: the default worker count.
#ifndef CPUBRRR_RUNTIME_THREADING_PHYSICAL_CORES_H_
#define CPUBRRR_RUNTIME_THREADING_PHYSICAL_CORES_H_

#include <string>
#include <vector>

namespace cpubrrr {

// Returns how many distinct cores the logical CPUs' sibling lists name (the CPUs sharing a
// core all list the same siblings, such as "0,8" or "0-1").
int CountCores(const std::vector<std::string>& sibling_lists);

// Returns the physical cores among the CPUs this process may run on (its affinity mask),
// from /sys/devices/system/cpu/cpuN/topology/thread_siblings_list; the logical CPU count
// when sysfs does not say.
int PhysicalCoreCount();

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_THREADING_PHYSICAL_CORES_H_
