// Software prefetch the compiler must keep: one cache line, or every line of a byte range.
#ifndef CPUBRRR_KERNELS_COMMON_PREFETCH_H_
#define CPUBRRR_KERNELS_COMMON_PREFETCH_H_

#include <cstddef>
#include <cstdint>

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

// Prefetches every 64-byte line that [p, p + bytes) touches, bytes > 0.
inline void PrefetchBytes(const void* p, size_t bytes) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{63};
  const uintptr_t last = reinterpret_cast<uintptr_t>(p) + bytes - 1;
  for (uintptr_t line = first; line <= last; line += 64) {
    PrefetchLine(reinterpret_cast<const void*>(line));
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_PREFETCH_H_
