// Timed loops of independent vpdpbusd chains (built with AVX-512 VNNI flags on x86-64).
#include "kernels/common/vnni_peak.h"

#include <ctime>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cpubrrr {
namespace {

// Returns this thread's CPU time in seconds (a loaded machine preempts wall-clock runs).
double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

#if defined(__x86_64__)
// Twelve chains: more than latency (4-5 cycles) x throughput (2 per cycle) needs, so the
// loop measures throughput. Iterations are many enough (~1e8 ops) for a stable timing.
constexpr int kChains = 12;
constexpr long kIterations = 10'000'000;

// Returns MACs per second of the loop over vectors V (64 bytes per zmm op, 32 per ymm).
template <typename V, V (*Dot)(V, V, V), V (*Set1)(int), int kBytes>
double Run() {
  V acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = Set1(c);
  const V a = Set1(0x01010101), b = Set1(0x02020202);
  const double start = ThreadCpuSeconds();
  for (long i = 0; i < kIterations; ++i) {
    for (int c = 0; c < kChains; ++c) acc[c] = Dot(acc[c], a, b);
    asm volatile("" : "+v"(acc[0]), "+v"(acc[1]), "+v"(acc[2]), "+v"(acc[3]), "+v"(acc[4]),
                 "+v"(acc[5]), "+v"(acc[6]), "+v"(acc[7]), "+v"(acc[8]), "+v"(acc[9]),
                 "+v"(acc[10]), "+v"(acc[11]));
  }
  return static_cast<double>(kIterations) * kChains * kBytes / (ThreadCpuSeconds() - start);
}

__m512i Dot512(__m512i c, __m512i a, __m512i b) { return _mm512_dpbusd_epi32(c, a, b); }
__m512i Set512(int v) { return _mm512_set1_epi32(v); }
__m256i Dot256(__m256i c, __m256i a, __m256i b) { return _mm256_dpbusd_epi32(c, a, b); }
__m256i Set256(int v) { return _mm256_set1_epi32(v); }
#endif

}  // namespace

double MeasureVnniPeakMacsPerSecond(int repeats) {
  double best = 0.0;
#if defined(__x86_64__)
  for (int r = 0; r < repeats; ++r) {
    const double z = Run<__m512i, Dot512, Set512, 64>();
    const double y = Run<__m256i, Dot256, Set256, 32>();
    best = z > best ? z : best;
    best = y > best ? y : best;
  }
#endif
  return best;
}

}  // namespace cpubrrr
