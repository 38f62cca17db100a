// A vpdpbusd throughput loop: twelve independent accumulators hide the instruction latency.
#include "kernels/kquant/vnni_peak.h"

#include <immintrin.h>
#include <time.h>

namespace cpubrrr {
namespace {

// Thread CPU time: on a shared, oversubscribed machine it excludes time spent descheduled.
double NowSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// Runs `iters` rounds of 12 vpdpbusd and returns a value derived from every accumulator.
__attribute__((noinline)) int RunDots(long iters, __m512i a, __m512i b) {
  constexpr int kAcc = 12;  // latency (~4-5 cycles) x up to 2 issue ports, with margin
  __m512i acc[kAcc];
  for (int i = 0; i < kAcc; ++i) acc[i] = _mm512_set1_epi32(i);
  for (long it = 0; it < iters; ++it) {
    for (int i = 0; i < kAcc; ++i) acc[i] = _mm512_dpbusd_epi32(acc[i], a, b);
    __asm__ volatile("" : "+v"(a));  // keep the loop from being folded
  }
  __m512i s = acc[0];
  for (int i = 1; i < kAcc; ++i) s = _mm512_add_epi32(s, acc[i]);
  return _mm512_reduce_add_epi32(s);
}

}  // namespace

double MeasureVnniPeakGmacs(int repeats) {
  constexpr long kIters = 2'000'000;
  constexpr double kMacsPerIter = 12.0 * 64;
  double best = 0;
  volatile int sink = 0;
  for (int r = 0; r < repeats; ++r) {
    const double start = NowSeconds();
    sink = sink + RunDots(kIters, _mm512_set1_epi8(3), _mm512_set1_epi8(-5));
    const double s = NowSeconds() - start;
    if (kIters * kMacsPerIter / s / 1e9 > best) best = kIters * kMacsPerIter / s / 1e9;
  }
  return best;
}

}  // namespace cpubrrr
