// What the benchmark reports about the machine: the CPU's name.
#ifndef CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_
#define CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_

#include <string>

namespace cpubrrr {

// Returns the first "model name" value of /proc/cpuinfo text, or "unknown CPU" (Arm
// kernels do not print one).
std::string CpuModelNameFrom(const std::string& cpuinfo);

// Returns CpuModelNameFrom(the contents of /proc/cpuinfo).
std::string CpuModelName();

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_
