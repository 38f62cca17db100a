// Checks the mean, the n - 1 standard deviation, the median and the spread against values
// worked out by hand.
#include "tools/cpubrrr/bench_stats.h"

#include <vector>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(Summarize, MeanAndSampleStddev) {
  // Mean 5; squared deviations 9 + 1 + 1 + 9 = 20; 20 / 3 -> sqrt(6.666...).
  const std::vector<double> samples = {2, 4, 6, 8};
  const SampleStats s = Summarize(samples);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.stddev, 2.5819888974716112, 1e-12);
}

TEST(Summarize, LargeValuesWithSmallSpreadKeepTheirSpread) {
  // A one-pass sum-of-squares formula loses these deviations to rounding.
  const std::vector<double> samples = {1e9 + 1, 1e9 + 2, 1e9 + 3};
  const SampleStats s = Summarize(samples);
  EXPECT_DOUBLE_EQ(s.mean, 1e9 + 2);
  EXPECT_NEAR(s.stddev, 1.0, 1e-9);
}

TEST(Summarize, MedianAndSpread) {
  const std::vector<double> odd = {9, 10, 12};
  EXPECT_DOUBLE_EQ(Summarize(odd).median, 10.0);
  EXPECT_DOUBLE_EQ(Summarize(odd).spread, 12.0 / 9.0);
  const std::vector<double> even = {12, 8, 10, 9};  // order does not matter
  EXPECT_DOUBLE_EQ(Summarize(even).median, 9.5);
  EXPECT_DOUBLE_EQ(Summarize(even).spread, 1.5);
  const std::vector<double> with_zero = {0, 4};
  EXPECT_DOUBLE_EQ(Summarize(with_zero).spread, 0.0);
}

TEST(Summarize, OneOrNoSamples) {
  const std::vector<double> one = {3.5};
  EXPECT_DOUBLE_EQ(Summarize(one).mean, 3.5);
  EXPECT_DOUBLE_EQ(Summarize(one).stddev, 0.0);
  EXPECT_DOUBLE_EQ(Summarize(one).median, 3.5);
  EXPECT_DOUBLE_EQ(Summarize(one).spread, 1.0);
  EXPECT_DOUBLE_EQ(Summarize({}).mean, 0.0);
  EXPECT_DOUBLE_EQ(Summarize({}).stddev, 0.0);
}

}  // namespace
}  // namespace cpubrrr
