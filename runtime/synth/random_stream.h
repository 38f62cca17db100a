// Deterministic counter-based random numbers for synthetic weights (splitmix64).
#ifndef CPUBRRR_RUNTIME_SYNTH_RANDOM_STREAM_H_
#define CPUBRRR_RUNTIME_SYNTH_RANDOM_STREAM_H_

#include <cmath>
#include <cstdint>
#include <string_view>

namespace cpubrrr::synth {

// Mixes a 64-bit value into a well-distributed one (splitmix64's finalizer).
inline uint64_t Mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Hashes a tensor name (FNV-1a) so each tensor gets its own stream for one seed.
inline uint64_t HashName(std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// A sequential random stream; the same (seed, name, chunk) always yields the same values.
class RandomStream {
 public:
  RandomStream(uint64_t seed, uint64_t name_hash, uint64_t chunk)
      : state_(Mix64(seed ^ Mix64(name_hash ^ Mix64(chunk)))) {}

  // Returns 64 random bits.
  uint64_t Next() { return Mix64(state_ += 0x9e3779b97f4a7c15ull); }

  // Returns a uniform float in [-1, 1).
  float Uniform() { return static_cast<float>(static_cast<int64_t>(Next()) * 0x1p-63); }

  // Returns an approximately normal value with mean 0, std 1 (sum of four uniforms).
  float Normal() {
    // Four uniforms in [-1,1) have variance 4/3; scale to unit variance.
    return (Uniform() + Uniform() + Uniform() + Uniform()) * 0.8660254f;
  }

 private:
  uint64_t state_;
};

}  // namespace cpubrrr::synth

#endif  // CPUBRRR_RUNTIME_SYNTH_RANDOM_STREAM_H_
