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

TEST(SplitByCost, CoversEverythingOnceInOrder) {
  const std::vector<std::vector<size_t>> cases = {
      {}, {5}, {0, 0, 0}, {5, 5, 5, 5, 5, 5, 5, 5}, {1, 100, 1, 1}, {3, 0, 7, 2, 9, 1, 4}, {5, 0}};
  for (const std::vector<size_t>& costs : cases) {
    for (int workers : {1, 2, 3, 8}) {
      size_t next = 0;
      for (int w = 0; w < workers; ++w) {
        Range r = SplitByCost(costs, w, workers);
        EXPECT_EQ(r.begin, next) << costs.size() << " items, " << workers << " workers";
        EXPECT_LE(r.begin, r.end);
        next = r.end;
      }
      EXPECT_EQ(next, costs.size());
    }
  }
}

TEST(SplitByCost, EqualItemsSplitEvenly) {
  const std::vector<size_t> eight(8, 5);
  EXPECT_EQ(SplitByCost(eight, 0, 2).end, 4u);
  EXPECT_EQ(SplitByCost(eight, 1, 2).begin, 4u);
  const std::vector<size_t> four(4, 3);
  for (int w = 0; w < 4; ++w) EXPECT_EQ(SplitByCost(four, w, 4).size(), 1u);
}

TEST(SplitByCost, ItemGoesWhereItsMiddleFalls) {
  // Middles at 0.5, 51, 101.5 and 102.5 of a total of 103, split at 51.5.
  const std::vector<size_t> costs = {1, 100, 1, 1};
  EXPECT_EQ(SplitByCost(costs, 0, 2).begin, 0u);
  EXPECT_EQ(SplitByCost(costs, 0, 2).end, 2u);
  EXPECT_EQ(SplitByCost(costs, 1, 2).begin, 2u);
  EXPECT_EQ(SplitByCost(costs, 1, 2).end, 4u);
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
