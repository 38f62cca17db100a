// Mean, sample standard deviation, median and spread of a benchmark's repetitions.
#ifndef CPUBRRR_TOOLS_CPUBRRR_BENCH_STATS_H_
#define CPUBRRR_TOOLS_CPUBRRR_BENCH_STATS_H_

#include "absl/types/span.h"

namespace cpubrrr {

struct SampleStats {
  double mean = 0;
  double stddev = 0;  // sample standard deviation (divides by n - 1); 0 for fewer than 2
  double median = 0;  // the middle sample, or the mean of the middle two
  double spread = 0;  // largest over smallest sample; 0 when one is not positive
};

// Returns the statistics of `samples` (all 0 when it is empty).
SampleStats Summarize(absl::Span<const double> samples);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_BENCH_STATS_H_
