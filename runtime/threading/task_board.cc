// TaskBoard: a shared claim counter and per-task done stamps.
#include "runtime/threading/task_board.h"

#include <thread>

#include "runtime/threading/cpu_relax.h"

namespace cpubrrr {

TaskBoard::TaskBoard(size_t max_tasks) : done_(new std::atomic<uint32_t>[max_tasks]) {
  for (size_t i = 0; i < max_tasks; ++i) done_[i].store(0, std::memory_order_relaxed);
}

void TaskBoard::Reset() {
  next_.store(0, std::memory_order_relaxed);
  ++round_;  // stamps of the last round no longer count as done
}

void TaskBoard::WaitDone(size_t task) const {
  for (int i = 0; done_[task].load(std::memory_order_acquire) != round_; ++i) {
    if (i < 2000) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

}  // namespace cpubrrr
