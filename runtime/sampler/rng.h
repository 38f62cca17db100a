// A seeded random generator whose output is the same on every platform, library and
// thread count: xoshiro256** seeded through SplitMix64.
#ifndef CPUBRRR_RUNTIME_SAMPLER_RNG_H_
#define CPUBRRR_RUNTIME_SAMPLER_RNG_H_

#include <cstdint>

namespace cpubrrr {

// Returns the next SplitMix64 output and advances `state`.
uint64_t SplitMix64(uint64_t& state);

class Xoshiro256 {
 public:
  // Seeds the four state words with SplitMix64 outputs starting from `seed`.
  explicit Xoshiro256(uint64_t seed);
  // Starts from the given state words (for checking published test vectors).
  static Xoshiro256 FromState(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3);
  // Returns the next 64 random bits (xoshiro256**).
  uint64_t Next();
  // Returns a double uniform in [0, 1) from the top 53 bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  Xoshiro256() = default;
  uint64_t s_[4];
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_RNG_H_
