// Measures what re-reading mapped memory costs after a pause: reads one byte of every
// 2 MiB page of a file (a model) every PERIOD seconds and prints each sweep's time and how
// many first reads took over 2.5 us. On the CI VM (docs/RESEARCH_LOG.md, session 6) every
// page goes slow (~8 us) about twice a second however often it is read: the reason for
// runtime/threading/page_warmer.h.
//   bazel run -c opt //runtime/threading:page_sweep_probe -- FILE [period_s=0.15] [seconds=3]
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

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
  const int fd = open(argv[1], O_RDONLY);
  const off_t size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
  constexpr size_t kPage = size_t{2} << 20;
  if (size < static_cast<off_t>(2 * kPage)) {
    std::fprintf(stderr, "page_sweep_probe: %s: cannot open, or smaller than 4 MiB\n", argv[1]);
    return 1;
  }
  void* map = mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    std::perror("page_sweep_probe: mmap");
    return 1;
  }
  madvise(map, static_cast<size_t>(size), MADV_HUGEPAGE);
  const uintptr_t first = (reinterpret_cast<uintptr_t>(map) + kPage - 1) & ~(kPage - 1);
  const size_t pages = (reinterpret_cast<uintptr_t>(map) + static_cast<size_t>(size) - first) / kPage;
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
