// PageIn with MADV_POPULATE_READ (Linux 5.14) and a touch-each-page fallback.
#include "runtime/gguf/page_in.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

namespace cpubrrr {
namespace {

constexpr size_t kChunk = size_t{64} << 20;

// Reads one byte of every page of [p, p + n).
void TouchPages(const uint8_t* p, size_t n, size_t page) {
  uint8_t sink = 0;
  for (size_t i = 0; i < n; i += page) sink ^= reinterpret_cast<const volatile uint8_t*>(p)[i];
  asm volatile("" : : "r"(sink));
}

}  // namespace

void PageIn(absl::Span<const uint8_t> mapped, const std::function<void(double)>& progress) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(mapped.data()) / page * page;
  const uintptr_t end = reinterpret_cast<uintptr_t>(mapped.data()) + mapped.size();
  bool populate = true;
  for (uintptr_t p = begin; p < end; p += kChunk) {
    const size_t n = std::min<uintptr_t>(kChunk, end - p);
    if (!populate || ::madvise(reinterpret_cast<void*>(p), n, MADV_POPULATE_READ) != 0) {
      populate = false;  // an older kernel: fault the pages in by reading them
      TouchPages(reinterpret_cast<const uint8_t*>(p), n, page);
    }
    if (progress) progress(static_cast<double>(p + n - begin) / static_cast<double>(end - begin));
  }
}

uint64_t CgroupMemoryLimitBytes(const std::string& proc_self_cgroup,
                                const std::string& sys_cgroup) {
  uint64_t limit = UINT64_MAX;
  // Takes the number in `file` ("max" or unreadable: no limit); true if the file exists.
  auto read = [&limit](const std::string& file) {
    std::FILE* f = std::fopen(file.c_str(), "r");
    if (f == nullptr) return false;
    unsigned long long v = 0;
    if (std::fscanf(f, "%llu", &v) == 1) limit = std::min<uint64_t>(limit, v);
    std::fclose(f);
    return true;
  };
  std::FILE* f = std::fopen(proc_self_cgroup.c_str(), "r");
  if (f == nullptr) return limit;
  char line[4096];
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    // hierarchy-id:controllers:path
    char* first = std::strchr(line, ':');
    char* second = first ? std::strchr(first + 1, ':') : nullptr;
    if (second == nullptr) continue;
    const std::string controllers(first + 1, second);
    std::string path(second + 1);
    while (!path.empty() && (path.back() == '\n' || path.back() == '/')) path.pop_back();
    if (controllers.empty()) {  // cgroup v2
      for (const std::string& root : {sys_cgroup, sys_cgroup + "/unified"}) {
        if (!read(root + path + "/memory.max")) read(root + "/memory.max");
      }
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      const std::string root = sys_cgroup + "/memory";
      if (!read(root + path + "/memory.limit_in_bytes")) read(root + "/memory.limit_in_bytes");
    }
  }
  std::fclose(f);
  return limit;
}

uint64_t AvailableMemoryBytes() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (f == nullptr) return 0;
  char line[256];
  uint64_t kib = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::sscanf(line, "MemAvailable: %lu kB", &kib) == 1) break;
  }
  std::fclose(f);
  return std::min(kib * 1024, CgroupMemoryLimitBytes("/proc/self/cgroup", "/sys/fs/cgroup"));
}

}  // namespace cpubrrr
