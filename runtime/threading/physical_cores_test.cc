// Checks the core counter on canned sibling lists and the live count's range.
#include "runtime/threading/physical_cores.h"

#include <algorithm>
#include <thread>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(CountCores, HyperThreadSiblingsCountOnce) {
  EXPECT_EQ(CountCores({"0,4", "1,5", "2,6", "3,7", "0,4", "1,5", "2,6", "3,7"}), 4);
  EXPECT_EQ(CountCores({"0-1", "0-1", "2-3", "2-3"}), 2);
  EXPECT_EQ(CountCores({"0", "1"}), 2);
}

TEST(PhysicalCoreCount, BetweenOneAndTheLogicalCpus) {
  const int cores = PhysicalCoreCount();
  EXPECT_GE(cores, 1);
  EXPECT_LE(cores, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

}  // namespace
}  // namespace cpubrrr
