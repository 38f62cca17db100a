// What the fuzz targets share: an invariant check that aborts, so libFuzzer keeps the input.
#ifndef CPUBRRR_TESTS_FUZZ_FUZZ_CHECK_H_
#define CPUBRRR_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

// Aborts with `why` unless `ok`.
inline void FuzzCheck(bool ok, const char* why) {
  if (ok) return;
  std::fprintf(stderr, "invariant broken: %s\n", why);
  std::abort();
}

#endif  // CPUBRRR_TESTS_FUZZ_FUZZ_CHECK_H_
