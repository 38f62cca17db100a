// A reusable barrier for a fixed set of threads: spins briefly, then yields the core.
#ifndef CPUBRRR_RUNTIME_THREADING_SPIN_BARRIER_H_
#define CPUBRRR_RUNTIME_THREADING_SPIN_BARRIER_H_

#include <atomic>
#include <cstdint>

namespace cpubrrr {

// Sense-reversing barrier. A pure spin barrier collapses when a waiting thread's core
// is taken by another process, so after a short spin each waiter yields between checks.
class SpinBarrier {
 public:
  explicit SpinBarrier(int n_threads) : n_threads_(n_threads) {}
  SpinBarrier(const SpinBarrier&) = delete;
  SpinBarrier& operator=(const SpinBarrier&) = delete;

  // Blocks until all n_threads threads have called Wait for this round. Every write a
  // thread made before Wait is visible to every thread after it.
  void Wait();

  int n_threads() const { return n_threads_; }

 private:
  const int n_threads_;
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<uint32_t> round_{0};
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_THREADING_SPIN_BARRIER_H_
