// Tests TaskBoard on the worker pool: every task runs once per round, waits hold.
#include "runtime/threading/task_board.h"

#include <atomic>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {
namespace {

class TaskBoardTest : public testing::TestWithParam<int> {};

// Tasks i < n write value i; task n + i waits for task i and copies its value.
TEST_P(TaskBoardTest, EveryTaskRunsOnceAndWaitsSeeEarlierWrites) {
  constexpr size_t n = 37;
  WorkerPool pool(GetParam());
  TaskBoard board(n);
  std::vector<std::atomic<int>> runs(2 * n);
  std::vector<int> first(n), second(n);
  for (int round = 0; round < 200; ++round) {
    for (auto& r : runs) r.store(0);
    pool.Run([&](const WorkerContext& ctx) {
      if (ctx.index() == 0) board.Reset();
      ctx.Sync();
      for (size_t task; (task = board.Claim()) < 2 * n;) {
        runs[task].fetch_add(1);
        if (task < n) {
          first[task] = round * 1000 + static_cast<int>(task);
          board.MarkDone(task);
        } else {
          board.WaitDone(task - n);
          second[task - n] = first[task - n];
        }
      }
    });
    for (size_t i = 0; i < 2 * n; ++i) ASSERT_EQ(runs[i].load(), 1) << "task " << i;
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(second[i], round * 1000 + static_cast<int>(i));
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, TaskBoardTest, testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace cpubrrr
