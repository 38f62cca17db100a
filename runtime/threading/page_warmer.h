// A background thread that touches the 2 MiB pages of weights a pass is about to read.
#ifndef CPUBRRR_RUNTIME_THREADING_PAGE_WARMER_H_
#define CPUBRRR_RUNTIME_THREADING_PAGE_WARMER_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/types/span.h"

namespace cpubrrr {

// A run of bytes to warm.
struct ByteSpan {
  const void* data;
  size_t size;
};

// Reads the first byte of each span and the start of every later 2 MiB page it reaches,
// front to back, on its own thread; a newer request replaces what is left of an older one.
// Why: on the CI VM the hypervisor re-validates every mapped 2 MiB page about twice a
// second, and the first read of a page after that is slow (docs/RESEARCH_LOG.md;
// //runtime/threading:page_sweep_probe shows it). Routed experts are mostly read for the
// first time since the last re-validation, so the worker reading them stalls; a thread on
// an idle core can take those stalls instead. It only reads, so results never depend on
// it. The thread sleeps on a condition variable between requests.
class PageWarmer {
 public:
  static constexpr size_t kPageBytes = size_t{2} << 20;

  PageWarmer();
  ~PageWarmer();
  PageWarmer(const PageWarmer&) = delete;
  PageWarmer& operator=(const PageWarmer&) = delete;

  // Replaces the pending request with `spans` (copied) and wakes the thread.
  void Warm(absl::Span<const ByteSpan> spans);
  // Blocks until the latest request has been touched to its end or replaced.
  void WaitIdle();
  // Pages touched since construction.
  uint64_t pages_touched();

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::vector<ByteSpan> pending_;  // guarded by mu_
  // Requests made; written under mu_, read without it between pages.
  std::atomic<uint64_t> requested_{0};
  uint64_t finished_ = 0;  // requests touched to their end or replaced; guarded by mu_
  uint64_t pages_ = 0;     // guarded by mu_
  std::atomic<bool> stopping_{false};  // written under mu_
  std::thread thread_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_THREADING_PAGE_WARMER_H_
