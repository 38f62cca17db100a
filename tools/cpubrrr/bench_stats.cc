// Two passes over the samples: the mean, then the squared deviations from it.
#include "tools/cpubrrr/bench_stats.h"

#include <cmath>

namespace cpubrrr {

SampleStats Summarize(absl::Span<const double> samples) {
  SampleStats stats;
  if (samples.empty()) return stats;
  for (double x : samples) stats.mean += x;
  stats.mean /= samples.size();
  if (samples.size() < 2) return stats;
  double squares = 0;
  for (double x : samples) squares += (x - stats.mean) * (x - stats.mean);
  stats.stddev = std::sqrt(squares / (samples.size() - 1));
  return stats;
}

}  // namespace cpubrrr
