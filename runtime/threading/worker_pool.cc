// WorkerPool: publish a job, wake the parked workers once, run, wait for all to finish.
#include "runtime/threading/worker_pool.h"

#include <algorithm>

#include "runtime/threading/cpu_relax.h"

namespace cpubrrr {

Range SplitRange(size_t n, int worker, int n_workers, size_t align) {
  const size_t units = (n + align - 1) / align;
  const size_t per = units / n_workers, extra = units % n_workers;
  const size_t w = static_cast<size_t>(worker);
  const size_t begin = (w * per + std::min(w, extra)) * align;
  const size_t end = ((w + 1) * per + std::min(w + 1, extra)) * align;
  return {std::min(begin, n), std::min(end, n)};
}

WorkerPool::WorkerPool(int n_threads) : barrier_(std::max(1, n_threads)) {
  for (int i = 1; i < barrier_.n_threads(); ++i) threads_.emplace_back(&WorkerPool::WorkerLoop, this, i);
}

WorkerPool::~WorkerPool() {
  stopping_ = true;
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::RunErased(void* job, Trampoline trampoline) {
  job_ = job;
  trampoline_ = trampoline;
  running_.store(n_threads() - 1, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  trampoline(job, WorkerContext(0, &barrier_));
  // Background workers finish their share at about the same time; spin, then yield.
  for (int i = 0; running_.load(std::memory_order_acquire) != 0; ++i) {
    if (i < 2000) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

void WorkerPool::WorkerLoop(int index) {
  uint32_t seen = 0;
  while (true) {
    generation_.wait(seen, std::memory_order_acquire);
    seen = generation_.load(std::memory_order_acquire);
    if (stopping_) return;
    trampoline_(job_, WorkerContext(index, &barrier_));
    running_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace cpubrrr
