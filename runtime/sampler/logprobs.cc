// Log-softmax of raw logits with a top-N selection.
#include "runtime/sampler/logprobs.h"

#include <algorithm>
#include <cmath>

#include "runtime/sampler/candidates.h"

namespace cpubrrr {

Logprobs ComputeLogprobs(std::span<const float> logits, int32_t token, int32_t top_n) {
  Logprobs out{{token, -INFINITY}, {}};
  if (logits.empty()) return out;
  const float max_l = *std::max_element(logits.begin(), logits.end());
  double sum = 0.0;
  for (float l : logits) sum += std::exp(static_cast<double>(l - max_l));
  const float log_z = max_l + static_cast<float>(std::log(sum));
  if (token >= 0 && static_cast<size_t>(token) < logits.size()) out.chosen.logprob = logits[token] - log_z;
  if (top_n > 0) {
    // Tokens ruled out (-inf: ignore_eos, a grammar) are no alternatives.
    for (const TokenCandidate& c : SelectTopK(logits, top_n)) {
      if (std::isfinite(c.logit)) out.top.push_back({c.id, c.logit - log_z});
    }
  }
  return out;
}

}  // namespace cpubrrr
