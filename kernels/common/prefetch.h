// Software prefetch the compiler must keep: one cache line, or every line of a byte range.
#ifndef CPUBRRR_KERNELS_COMMON_PREFETCH_H_
#define CPUBRRR_KERNELS_COMMON_PREFETCH_H_

#include <cstddef>
#include <cstdint>
#include <functional>

namespace cpubrrr {

// Asks for the line holding `p` in every cache level. An asm statement rather than
// _mm_prefetch: GCC 12 folds a loop of prefetch builtins with a constant trip count into
// its first iteration or drops it (the K-quant gemv prefetched nothing until this).
// Prefetching an address past the end of an array never faults.
inline void PrefetchLine(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#elif defined(__aarch64__)
  asm volatile("prfm pldl1keep, [%0]" : : "r"(p));
#else
  __builtin_prefetch(p, 0, 3);
#endif
}

// A pointer `ahead` bytes past p, for a stream's prefetches to walk ahead of its reads with
// small displacements from their own register. The compiler cannot see that it equals
// p + ahead, so it neither addresses the prefetches from p's register at a displacement of
// `ahead` nor the reads from this one at minus `ahead`: on an Intel Xeon either form read
// cold memory at 78% of the yardstick where this one read 97-99% (MXFP4 gemv, research log
// 2026-12-07; a base register on another 4 KiB page than the address it forms is the
// likely cost).
template <typename T>
inline const T* AheadOf(const T* p, size_t ahead) {
  const char* c = reinterpret_cast<const char*>(p) + ahead;
  asm("" : "+r"(c));
  return reinterpret_cast<const T*>(c);
}

// Asks for the line holding `p` in L2 and the levels below, not L1: for lines wanted a
// long stream ahead (the next panel of a lane tile), which L1 would evict before use.
inline void PrefetchLineL2(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetcht1 %0" : : "m"(*static_cast<const char*>(p)));
#elif defined(__aarch64__)
  asm volatile("prfm pldl2keep, [%0]" : : "r"(p));
#else
  __builtin_prefetch(p, 0, 2);
#endif
}

// Prefetches the line holding p, or the one holding `last` when p lies past it: a stream
// prefetching a fixed distance ahead of its reads would otherwise ask, near its end, for
// lines its reader never reads (the next matrix a model reads lies elsewhere).
inline void PrefetchLineUpTo(const void* p, const void* last) {
  PrefetchLine(std::less<const void*>()(p, last) ? p : last);
}

// Prefetches the lines of [p, p + bytes) below `end`: a stream's first lines, which no
// prefetch from within the stream asks for.
inline void PrefetchFirstLines(const void* p, const void* end, size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (size_t i = 0; i < bytes && std::less<const void*>()(c + i, end); i += 64) PrefetchLine(c + i);
}

// Prefetches every 64-byte line that [p, p + kBytes) touches, wherever p falls in a line
// (at most one line more than the span needs), with kPrefetch (PrefetchLineL2: into L2).
template <size_t kBytes, void (*kPrefetch)(const void*) = PrefetchLine>
inline void PrefetchSpan(const void* p) {
  static_assert(kBytes > 0);
  const char* c = static_cast<const char*>(p);
#pragma GCC unroll 64
  for (size_t i = 0; i < (kBytes + 62) / 64 + 1; ++i) kPrefetch(c + 64 * i);
}

// Prefetches every 64-byte line whose first byte lies in [p, p + kBytes): 2 or 3 lines for
// a 144-byte Q4_K block. Over spans that follow one another in memory each line is asked
// for once (PrefetchSpan asks again for the lines two spans share); the line holding p
// itself belongs to the span before.
template <size_t kBytes>
inline void PrefetchLinesStartingIn(const void* p) {
  static_assert(kBytes >= 64);
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p);
  const uintptr_t first = (begin + 63) & ~uintptr_t{63};
  constexpr size_t kAlways = kBytes / 64;  // these start before begin + kBytes wherever p is
#pragma GCC unroll 64
  for (size_t i = 0; i < kAlways; ++i) PrefetchLine(reinterpret_cast<const void*>(first + 64 * i));
  if (first + 64 * kAlways < begin + kBytes) {
    PrefetchLine(reinterpret_cast<const void*>(first + 64 * kAlways));
  }
}

// Prefetches the span [p + ahead, p + ahead + kBytes) as PrefetchSpan does, then the lines
// that start in the spans ahead / 2 and ahead / 4 bytes on: over a stream every line is
// asked for three times as the reader approaches it. For gemvs whose compute runs well
// ahead of memory: on the Zen 5 VM of issue #3 the Q8_0 gemv read cold memory much faster
// with these than with one request per span, as if requests made while many lines are in
// flight were dropped; a line asked for again once cached costs an instruction (a slower
// gemv loses more to those instructions than it gains: research log).
template <size_t kBytes>
inline void PrefetchSpanThrice(const void* p, size_t ahead) {
  const char* c = static_cast<const char*>(p);
  PrefetchSpan<kBytes>(c + ahead);
  PrefetchLinesStartingIn<kBytes>(c + ahead / 2);
  PrefetchLinesStartingIn<kBytes>(c + ahead / 4);
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_PREFETCH_H_
