// PageWarmer: a request buffer under a mutex and the thread that walks it.
#include "runtime/threading/page_warmer.h"

namespace cpubrrr {

PageWarmer::PageWarmer() : thread_([this] { Loop(); }) {}

PageWarmer::~PageWarmer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void PageWarmer::Warm(absl::Span<const ByteSpan> spans) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.assign(spans.begin(), spans.end());
    ++requested_;
  }
  wake_.notify_one();
}

void PageWarmer::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [&] { return finished_ == requested_; });
}

uint64_t PageWarmer::pages_touched() {
  std::lock_guard<std::mutex> lock(mu_);
  return pages_;
}

void PageWarmer::Loop() {
  std::vector<ByteSpan> spans;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || finished_ != requested_; });
    if (stopping_) return;
    const uint64_t request = requested_;
    spans.swap(pending_);
    lock.unlock();
    // Touch page by page; between pages, give up on this request if a newer one came.
    uint64_t touched = 0;
    bool replaced = false;
    for (const ByteSpan& s : spans) {
      const uintptr_t begin = reinterpret_cast<uintptr_t>(s.data);
      const uintptr_t end = begin + s.size;
      // The span's first byte, then the start of each later page it reaches.
      for (uintptr_t at = begin; at < end && !replaced; at = (at & ~(kPageBytes - 1)) + kPageBytes) {
        static_cast<void>(*reinterpret_cast<const volatile uint8_t*>(at));
        ++touched;
        replaced = requested_.load(std::memory_order_relaxed) != request ||
                   stopping_.load(std::memory_order_relaxed);
      }
    }
    lock.lock();
    pages_ += touched;
    finished_ = finished_ < request ? request : finished_;
    if (finished_ == requested_) idle_.notify_all();
  }
}

}  // namespace cpubrrr
