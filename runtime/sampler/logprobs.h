// Log-probabilities of the model's raw distribution (before penalties and truncation),
// as an OpenAI-style API reports them.
#ifndef CPUBRRR_RUNTIME_SAMPLER_LOGPROBS_H_
#define CPUBRRR_RUNTIME_SAMPLER_LOGPROBS_H_

#include <cstdint>
#include <span>
#include <vector>

namespace cpubrrr {

struct TokenLogprob {
  int32_t id;
  float logprob;
};

struct Logprobs {
  TokenLogprob chosen;
  std::vector<TokenLogprob> top;  // best first (ties: lower id first)
};

// Returns log softmax(logits) at `token` and the `top_n` most likely tokens (those with
// a finite logit only). O(V).
Logprobs ComputeLogprobs(std::span<const float> logits, int32_t token, int32_t top_n);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_LOGPROBS_H_
