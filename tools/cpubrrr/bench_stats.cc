// Two passes over the samples: the mean, then the squared deviations from it; the median
// and the spread from a sorted copy.
#include "tools/cpubrrr/bench_stats.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cpubrrr {

SampleStats Summarize(absl::Span<const double> samples) {
  SampleStats stats;
  if (samples.empty()) return stats;
  for (double x : samples) stats.mean += x;
  stats.mean /= samples.size();
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  stats.median = n % 2 != 0 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (sorted.front() > 0) stats.spread = sorted.back() / sorted.front();
  if (samples.size() < 2) return stats;
  double squares = 0;
  for (double x : samples) squares += (x - stats.mean) * (x - stats.mean);
  stats.stddev = std::sqrt(squares / (samples.size() - 1));
  return stats;
}

}  // namespace cpubrrr
