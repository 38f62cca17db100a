// Measures what re-reading mapped memory costs after a pause: reads one byte of every
// 2 MiB page of a file (a model) every PERIOD seconds and prints each sweep's time and how
// many first reads took over 2.5 us. On the CI VM (docs/RESEARCH_LOG.md) every page goes
// slow about twice a second however often it is read: the reason for
// runtime/threading/page_warmer.h.
//   bazel run -c opt //runtime/threading:page_sweep_probe -- FILE [period_s=0.15] [seconds=3]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "runtime/gguf/mapped_file.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: page_sweep_probe FILE [period_s=0.15] [seconds=3]\n");
    return 2;
  }
  const double period = argc > 2 ? std::atof(argv[2]) : 0.15;
  const double total = argc > 3 ? std::atof(argv[3]) : 3.0;
  // Mapped as the models map weights (runtime/gguf/mapped_file.h).
  absl::StatusOr<std::unique_ptr<cpubrrr::MappedFile>> file = cpubrrr::MappedFile::Open(argv[1]);
  if (!file.ok()) {
    std::fprintf(stderr, "page_sweep_probe: %s\n", std::string(file.status().message()).c_str());
    return 1;
  }
  constexpr size_t kPage = size_t{2} << 20;
  const uintptr_t begin = reinterpret_cast<uintptr_t>((*file)->bytes().data());
  const uintptr_t first = (begin + kPage - 1) & ~(kPage - 1);
  const uintptr_t end_of_file = begin + (*file)->bytes().size();
  const size_t pages = end_of_file > first ? (end_of_file - first) / kPage : 0;
  if (pages == 0) {
    std::fprintf(stderr, "page_sweep_probe: %s holds no whole 2 MiB page\n", argv[1]);
    return 1;
  }
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(total));
  for (int sweep = 0; Clock::now() < end; ++sweep) {
    size_t slow = 0;
    const Clock::time_point start = Clock::now();
    for (size_t p = 0; p < pages; ++p) {
      const Clock::time_point t = Clock::now();
      static_cast<void>(*reinterpret_cast<const volatile uint8_t*>(first + p * kPage));
      slow += Seconds(Clock::now() - t) > 2.5e-6;
    }
    std::printf("sweep %d: %zu pages in %.1f ms, %zu first reads over 2.5 us\n", sweep, pages,
                1e3 * Seconds(Clock::now() - start), slow);
    std::this_thread::sleep_for(std::chrono::duration<double>(period));
  }
  return 0;
}
