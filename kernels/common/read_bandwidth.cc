// Highway streaming-read loop with run-time dispatch, and its timing harness.
#include "kernels/common/read_bandwidth.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "kernels/common/huge_pages.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/common/read_bandwidth.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

uint64_t StreamReadImpl(const uint64_t* data, size_t n) {
  const hn::ScalableTag<uint64_t> d;
  const size_t lanes = hn::Lanes(d);
  // Two accumulators and a pointer step. The earlier form (four accumulators, an index)
  // read slower on Zen 5 with AVX-512, alternating in one process with hand-written loops;
  // this one reads as fast as the best of them (research log).
  auto a0 = hn::Zero(d), a1 = hn::Zero(d);
  for (const uint64_t* p = data; p < data + n; p += 2 * lanes) {
    a0 = hn::Xor(a0, hn::Load(d, p));
    a1 = hn::Xor(a1, hn::Load(d, p + lanes));
  }
  return hn::GetLane(hn::SumOfLanes(d, hn::Xor(a0, a1)));
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(StreamReadImpl);

uint64_t StreamRead(const uint64_t* data, size_t n) {
  return HWY_DYNAMIC_DISPATCH(StreamReadImpl)(data, n);
}

double MeasureReadBandwidthGBs(size_t bytes, int repeats) {
  const size_t n = bytes / sizeof(uint64_t) / 64 * 64;
  auto buffer = AllocateHugeArray<uint64_t>(n);
  for (size_t i = 0; i < n; ++i) buffer[i] = i;  // touch every page
  double best = 0.0;
  volatile uint64_t sink = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    sink = sink + StreamRead(buffer.get(), n);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, n * sizeof(uint64_t) / s / 1e9);
  }
  return best;
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
