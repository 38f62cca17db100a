// Tests the worker pool, its barrier and the deterministic range split.
#include "runtime/threading/worker_pool.h"

#include <atomic>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(SplitRange, CoversEverythingOnceInOrder) {
  for (size_t n : {0, 1, 7, 64, 1000, 1001}) {
    for (int workers : {1, 2, 3, 8}) {
      for (size_t align : {1, 4, 32}) {
        size_t next = 0;
        for (int w = 0; w < workers; ++w) {
          Range r = SplitRange(n, w, workers, align);
          EXPECT_EQ(r.begin, next) << n << " " << workers << " " << align;
          EXPECT_LE(r.begin, r.end);
          if (r.end < n) EXPECT_EQ(r.end % align, 0u);
          next = r.end;
        }
        EXPECT_EQ(next, n);
      }
    }
  }
}

TEST(SplitRange, BalancesWithinOneUnit) {
  Range a = SplitRange(10, 0, 3), b = SplitRange(10, 1, 3), c = SplitRange(10, 2, 3);
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(c.size(), 3u);
}

class WorkerPoolTest : public testing::TestWithParam<int> {};

TEST_P(WorkerPoolTest, EveryWorkerRunsEveryJobOnce) {
  WorkerPool pool(GetParam());
  std::vector<std::atomic<int>> runs(GetParam());
  for (int job = 0; job < 200; ++job) {
    pool.Run([&](const WorkerContext& ctx) { runs[ctx.index()].fetch_add(1); });
  }
  for (auto& r : runs) EXPECT_EQ(r.load(), 200);
}

TEST_P(WorkerPoolTest, SyncOrdersPhasesInsideAJob) {
  const int n = GetParam();
  WorkerPool pool(n);
  std::vector<int64_t> partial(n), result(n);
  for (int job = 0; job < 100; ++job) {
    pool.Run([&](const WorkerContext& ctx) {
      // Phase 1: each worker sums its share; phase 2: every worker reads all partials.
      Range r = ctx.Share(10000);
      int64_t s = 0;
      for (size_t i = r.begin; i < r.end; ++i) s += static_cast<int64_t>(i) + job;
      partial[ctx.index()] = s;
      ctx.Sync();
      result[ctx.index()] = std::accumulate(partial.begin(), partial.end(), int64_t{0});
      ctx.Sync();
    });
    const int64_t expected = int64_t{10000} * 9999 / 2 + int64_t{10000} * job;
    for (int w = 0; w < n; ++w) ASSERT_EQ(result[w], expected) << "job " << job;
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, WorkerPoolTest, testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace cpubrrr
