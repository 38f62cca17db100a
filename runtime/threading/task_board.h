// Tasks claimed in order by whichever worker is free, with done flags tasks can wait on.
#ifndef CPUBRRR_RUNTIME_THREADING_TASK_BOARD_H_
#define CPUBRRR_RUNTIME_THREADING_TASK_BOARD_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace cpubrrr {

// A round of tasks 0, 1, 2, ... that workers claim one at a time, so a faster worker
// takes more of them (dynamic balance). Use it only where a result does not depend on
// which worker runs a task. A task may wait for an earlier one to be done.
class TaskBoard {
 public:
  // `max_tasks`: the most tasks a round may mark done.
  explicit TaskBoard(size_t max_tasks);

  // Starts a round: call from one worker, then synchronize the workers before any Claim.
  void Reset();
  // Returns the lowest task not yet claimed this round (the caller stops at its count).
  size_t Claim() { return next_.fetch_add(1, std::memory_order_relaxed); }
  // Marks `task` done: what its worker wrote before is visible after WaitDone(task).
  void MarkDone(size_t task) { done_[task].store(round_, std::memory_order_release); }
  // Returns once `task` is marked done this round (spinning, then yielding the core).
  void WaitDone(size_t task) const;

 private:
  alignas(64) std::atomic<size_t> next_{0};
  std::unique_ptr<std::atomic<uint32_t>[]> done_;  // the round in which each task was done
  uint32_t round_ = 1;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_THREADING_TASK_BOARD_H_
