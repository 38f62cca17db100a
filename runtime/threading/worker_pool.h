// Persistent workers that run a whole job (a forward pass) together and park between jobs.
#ifndef CPUBRRR_RUNTIME_THREADING_WORKER_POOL_H_
#define CPUBRRR_RUNTIME_THREADING_WORKER_POOL_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "runtime/threading/spin_barrier.h"

namespace cpubrrr {

// The half-open range [begin, end).
struct Range {
  size_t begin;
  size_t end;
  size_t size() const { return end - begin; }
};

// Returns worker `worker`'s share of [0, n) split into `n_workers` contiguous parts whose
// boundaries are multiples of `align` (the last part takes the remainder). The split
// depends only on its arguments, so every worker computes the same partition.
Range SplitRange(size_t n, int worker, int n_workers, size_t align = 1);

// A job's view of its worker: its index, the worker count, and the shared barrier.
class WorkerContext {
 public:
  WorkerContext(int index, SpinBarrier* barrier) : index_(index), barrier_(barrier) {}
  int index() const { return index_; }
  int n_workers() const { return barrier_->n_threads(); }
  // Blocks until every worker of the job reaches the same Sync call.
  void Sync() const { barrier_->Wait(); }
  // Returns this worker's share of [0, n); see SplitRange.
  Range Share(size_t n, size_t align = 1) const { return SplitRange(n, index_, n_workers(), align); }

 private:
  int index_;
  SpinBarrier* barrier_;
};

// n_threads - 1 background threads plus the calling thread run each job. Between jobs
// the background threads sleep on a futex (std::atomic::wait), so a job costs one
// wake-up per worker, not one per operation inside it.
class WorkerPool {
 public:
  explicit WorkerPool(int n_threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int n_threads() const { return barrier_.n_threads(); }

  // Runs job(ctx) on every worker (the caller is worker 0) and returns when all have
  // finished. Not reentrant: call from one thread at a time.
  template <typename Job>
  void Run(Job&& job) {
    RunErased(&job, [](void* j, const WorkerContext& ctx) { (*static_cast<Job*>(j))(ctx); });
  }

 private:
  using Trampoline = void (*)(void*, const WorkerContext&);
  void RunErased(void* job, Trampoline trampoline);
  void WorkerLoop(int index);

  SpinBarrier barrier_;
  std::vector<std::thread> threads_;
  void* job_ = nullptr;
  Trampoline trampoline_ = nullptr;
  alignas(64) std::atomic<uint32_t> generation_{0};
  alignas(64) std::atomic<int> running_{0};
  bool stopping_ = false;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_THREADING_WORKER_POOL_H_
