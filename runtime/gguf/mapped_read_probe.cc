// Measures how fast a whole model file streams through the mapping the models use, against
// the read yardstick of `cpubrrr bench` (the best of 3 passes over a fresh 1 GiB huge-page
// buffer), alternating the two each round at the same thread count. On the CI VM the qwen3
// file reads well below the yardstick (docs/RESEARCH_LOG.md): each pass over it meets a
// re-validation of every 2 MiB page (page_sweep_probe), which a 1 GiB buffer re-read every
// few tens of milliseconds rarely does.
//   bazel run -c opt //runtime/gguf:mapped_read_probe -- FILE [threads=1] [rounds=5]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kernels/common/parallel_read_bandwidth.h"
#include "runtime/gguf/mapped_file.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: mapped_read_probe FILE [threads=1] [rounds=5]\n");
    return 2;
  }
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  if (threads < 1 || rounds < 1) {
    std::fprintf(stderr, "mapped_read_probe: threads and rounds must be at least 1\n");
    return 2;
  }
  absl::StatusOr<std::unique_ptr<cpubrrr::MappedFile>> file = cpubrrr::MappedFile::Open(argv[1]);
  if (!file.ok()) {
    std::fprintf(stderr, "mapped_read_probe: %s\n", std::string(file.status().message()).c_str());
    return 1;
  }
  // The 64-byte aligned words of the file, in whole 512-byte runs (StreamRead's unit).
  const uintptr_t begin = (reinterpret_cast<uintptr_t>((*file)->bytes().data()) + 63) & ~uintptr_t{63};
  const uintptr_t end = reinterpret_cast<uintptr_t>((*file)->bytes().data() + (*file)->bytes().size());
  const size_t words = end > begin ? (end - begin) / sizeof(uint64_t) / 64 * 64 : 0;
  if (words == 0) {
    std::fprintf(stderr, "mapped_read_probe: %s is too small\n", argv[1]);
    return 1;
  }
  const auto* data = reinterpret_cast<const uint64_t*>(begin);
  uint64_t checksum = 0;
  cpubrrr::TimeParallelStreamRead(data, words, threads, 1, checksum);  // pages the file in
  std::vector<double> ratios;
  for (int r = 0; r < rounds; ++r) {
    const double yardstick = cpubrrr::MeasureParallelReadBandwidthGBs(size_t{1} << 30, {threads}, 3)[0];
    const double seconds = cpubrrr::TimeParallelStreamRead(data, words, threads, 1, checksum)[0];
    const double file_gbs = static_cast<double>(words) * sizeof(uint64_t) / seconds / 1e9;
    ratios.push_back(file_gbs / yardstick);
    std::printf("round %d, %d thread%s: 1 GiB buffer %.1f GB/s, whole file %.1f GB/s (%.1f%%)\n", r,
                threads, threads == 1 ? "" : "s", yardstick, file_gbs, 100 * ratios.back());
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("median: the file streams at %.1f%% of the yardstick (checksum %llx)\n",
              100 * ratios[ratios.size() / 2], static_cast<unsigned long long>(checksum));
  return 0;
}
