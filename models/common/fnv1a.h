// FNV-1a, 64 bits: a quick non-cryptographic hash of bytes, for names and fingerprints.
#ifndef CPUBRRR_MODELS_COMMON_FNV1A_H_
#define CPUBRRR_MODELS_COMMON_FNV1A_H_

#include <cstddef>
#include <cstdint>

namespace cpubrrr {

inline constexpr uint64_t kFnv1aStart = 14695981039346656037ull;

// Returns `hash` (kFnv1aStart, or an earlier result to continue it) with `n` bytes mixed in.
inline uint64_t Fnv1a(const void* data, size_t n, uint64_t hash = kFnv1aStart) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  return hash;
}

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_FNV1A_H_
