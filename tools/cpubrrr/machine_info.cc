// The /proc/cpuinfo and /proc/self/io readers.
#include "tools/cpubrrr/machine_info.h"

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
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

namespace {

std::string FileText(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string CpuModelName() { return CpuModelNameFrom(FileText("/proc/cpuinfo")); }

uint64_t StorageReadBytesFrom(const std::string& proc_io) {
  for (absl::string_view line : absl::StrSplit(proc_io, '\n')) {
    if (!absl::ConsumePrefix(&line, "read_bytes:")) continue;
    uint64_t bytes = 0;
    return absl::SimpleAtoi(absl::StripAsciiWhitespace(line), &bytes) ? bytes : 0;
  }
  return 0;
}

uint64_t StorageReadBytes() { return StorageReadBytesFrom(FileText("/proc/self/io")); }

}  // namespace cpubrrr
