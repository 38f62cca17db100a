// Software prefetch the compiler must keep: one cache line, or every line of a byte range.
#ifndef CPUBRRR_KERNELS_COMMON_PREFETCH_H_
#define CPUBRRR_KERNELS_COMMON_PREFETCH_H_

#include <cstddef>

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

// Prefetches every 64-byte line that [p, p + kBytes) touches, wherever p falls in a line
// (at most one line more than the span needs).
template <size_t kBytes>
inline void PrefetchSpan(const void* p) {
  static_assert(kBytes > 0);
  const char* c = static_cast<const char*>(p);
#pragma GCC unroll 64
  for (size_t i = 0; i < (kBytes + 62) / 64 + 1; ++i) PrefetchLine(c + 64 * i);
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_PREFETCH_H_
