// Checks that RunInChild returns the child's numbers, reports a dead child, and keeps the
// child's memory out of the parent's peak RSS.
#include "tools/cpubrrr/run_in_child.h"

#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

long PeakRssKib() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(RunInChild, ReturnsTheChildsNumbers) {
  absl::StatusOr<std::vector<double>> values = RunInChild([] { return std::vector<double>{1.5, -2, 1e300}; });
  ASSERT_TRUE(values.ok()) << values.status();
  EXPECT_EQ(*values, (std::vector<double>{1.5, -2, 1e300}));
  absl::StatusOr<std::vector<double>> none = RunInChild([] { return std::vector<double>{}; });
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
}

TEST(RunInChild, ADeadChildIsAnError) {
  absl::StatusOr<std::vector<double>> values = RunInChild([]() -> std::vector<double> { _exit(3); });
  EXPECT_EQ(values.status().code(), absl::StatusCode::kInternal);
}

TEST(RunInChild, ChildMemoryIsNotInThePeakRss) {
  constexpr size_t kBytes = size_t{256} << 20;
  const long before = PeakRssKib();
  absl::StatusOr<std::vector<double>> values = RunInChild([] {
    std::unique_ptr<char[]> block(new char[kBytes]);
    std::memset(block.get(), 1, kBytes);  // touch every page
    return std::vector<double>{static_cast<double>(block[kBytes - 1])};
  });
  ASSERT_TRUE(values.ok()) << values.status();
  EXPECT_EQ(*values, std::vector<double>{1});
  EXPECT_LT(PeakRssKib() - before, static_cast<long>(kBytes / 1024 / 2));
}

}  // namespace
}  // namespace cpubrrr
