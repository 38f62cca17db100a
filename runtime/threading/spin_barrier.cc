// SpinBarrier: the last thread to arrive opens the round; the others spin, then yield.
#include "runtime/threading/spin_barrier.h"

#include <thread>

#include "runtime/threading/cpu_relax.h"

namespace cpubrrr {

void SpinBarrier::Wait() {
  if (n_threads_ == 1) return;
  const uint32_t round = round_.load(std::memory_order_relaxed);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) == n_threads_ - 1) {
    arrived_.store(0, std::memory_order_relaxed);
    round_.store(round + 1, std::memory_order_release);
    return;
  }
  // About a microsecond of spinning covers the usual skew between workers; past it the
  // thread gives its core away so a preempted peer can finish.
  constexpr int kSpins = 2000;
  for (int i = 0; round_.load(std::memory_order_acquire) == round; ++i) {
    if (i < kSpins) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

}  // namespace cpubrrr
