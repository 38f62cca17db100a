// What the benchmark reports about the machine and the process: the CPU's name and the
// bytes the process has read from storage.
#ifndef CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_
#define CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_

#include <cstdint>
#include <string>

namespace cpubrrr {

// Returns the first "model name" value of /proc/cpuinfo text, or "unknown CPU" (Arm
// kernels do not print one).
std::string CpuModelNameFrom(const std::string& cpuinfo);

// Returns CpuModelNameFrom(the contents of /proc/cpuinfo).
std::string CpuModelName();

// Returns the "read_bytes" value of /proc/<pid>/io text (the bytes the process's reads and
// page faults made the kernel fetch from storage, page cache hits excluded), or 0.
uint64_t StorageReadBytesFrom(const std::string& proc_io);

// Returns StorageReadBytesFrom(the contents of /proc/self/io): 0 where the kernel does not
// count (no task I/O accounting).
uint64_t StorageReadBytes();

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_MACHINE_INFO_H_
