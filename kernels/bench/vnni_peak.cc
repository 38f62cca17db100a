// Timed loops of independent vpdpbusd chains (built with AVX-512 VNNI flags on x86-64).
#include "kernels/bench/vnni_peak.h"

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
// The chains are twelve named variables: held in an array, GCC kept them on the stack and
// the loop timed store-to-load forwarding, far below the vpdpbusd peak.
template <typename V, V (*Dot)(V, V, V), V (*Set1)(int), int kBytes>
double Run() {
  V c0 = Set1(0), c1 = Set1(1), c2 = Set1(2), c3 = Set1(3), c4 = Set1(4), c5 = Set1(5);
  V c6 = Set1(6), c7 = Set1(7), c8 = Set1(8), c9 = Set1(9), c10 = Set1(10), c11 = Set1(11);
  const V a = Set1(0x01010101), b = Set1(0x02020202);
  const double start = ThreadCpuSeconds();
  for (long i = 0; i < kIterations; ++i) {
    c0 = Dot(c0, a, b), c1 = Dot(c1, a, b), c2 = Dot(c2, a, b), c3 = Dot(c3, a, b);
    c4 = Dot(c4, a, b), c5 = Dot(c5, a, b), c6 = Dot(c6, a, b), c7 = Dot(c7, a, b);
    c8 = Dot(c8, a, b), c9 = Dot(c9, a, b), c10 = Dot(c10, a, b), c11 = Dot(c11, a, b);
    asm volatile("" : "+v"(c0), "+v"(c1), "+v"(c2), "+v"(c3), "+v"(c4), "+v"(c5), "+v"(c6),
                 "+v"(c7), "+v"(c8), "+v"(c9), "+v"(c10), "+v"(c11));
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
