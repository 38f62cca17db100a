// What the benchmark reports about the machine: the CPU's name and its physical cores.
#ifndef CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_
#define CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_

#include <string>
#include <vector>

namespace cpubrrr {

// Returns the first "model name" value of /proc/cpuinfo text, or "unknown CPU" (Arm
// kernels do not print one).
std::string CpuModelNameFrom(const std::string& cpuinfo);

// Returns CpuModelNameFrom(the contents of /proc/cpuinfo).
std::string CpuModelName();

// Returns how many distinct cores the logical CPUs' sibling lists name (the CPUs sharing a
// core all list the same siblings, such as "0,8" or "0-1").
int CountCores(const std::vector<std::string>& sibling_lists);

// Returns the physical cores among the CPUs this process may run on (its affinity mask),
// from /sys/devices/system/cpu/cpuN/topology/thread_siblings_list; the logical CPU count
// when sysfs does not say.
int PhysicalCoreCount();

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_
