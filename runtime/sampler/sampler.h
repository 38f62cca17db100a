// The sampling chain, in llama.cpp's default order: penalties, top-k, top-p, min-p,
// temperature, then a draw from the distribution with a seeded, portable generator.
#ifndef CPUBRRR_RUNTIME_SAMPLER_SAMPLER_H_
#define CPUBRRR_RUNTIME_SAMPLER_SAMPLER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "runtime/sampler/candidates.h"
#include "runtime/sampler/logprobs.h"
#include "runtime/sampler/penalties.h"
#include "runtime/sampler/rng.h"
#include "runtime/sampler/sampler_params.h"

namespace cpubrrr {

struct SampleResult {
  int32_t token = -1;
  std::optional<Logprobs> logprobs;  // when params.logprobs >= 0
};

// One sampler per sequence; not thread-safe. The same seed, logits and accepted tokens
// give the same tokens on every run, platform and thread count.
class Sampler {
 public:
  explicit Sampler(const SamplerParams& params);

  // Returns the candidates left after the chain with their final probabilities, best
  // first; greedy (temperature <= 0) leaves the single best token with p = 1.
  std::vector<TokenCandidate> Distribution(std::span<const float> logits) const;
  // Draws a token from Distribution(logits). Does not Accept() it.
  SampleResult Sample(std::span<const float> logits);
  // Adds a token (prompt or generated) to the penalty window.
  void Accept(int32_t token) { penalties_.Accept(token); }
  // Clears the penalty window and restarts the generator from the seed.
  void Reset();

  const SamplerParams& params() const { return params_; }

 private:
  SamplerParams params_;
  PenaltyWindow penalties_;
  Xoshiro256 rng_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_SAMPLER_H_
