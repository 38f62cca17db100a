// Repetition, presence and frequency penalties over the last N accepted tokens
// (llama.cpp semantics).
#ifndef CPUBRRR_RUNTIME_SAMPLER_PENALTIES_H_
#define CPUBRRR_RUNTIME_SAMPLER_PENALTIES_H_

#include <cstdint>
#include <deque>
#include <span>
#include <unordered_map>
#include <vector>

#include "runtime/sampler/candidates.h"

namespace cpubrrr {

class PenaltyWindow {
 public:
  PenaltyWindow(int32_t last_n, float repeat, float frequency, float presence);

  // Returns whether the penalties change nothing (window 0 or all penalties neutral).
  bool disabled() const;
  // Records `token`, forgetting the oldest once the window holds last_n tokens.
  void Accept(int32_t token);
  void Reset();
  // Returns the penalized logits of the tokens in the window that are inside `logits`:
  // a positive logit is divided by `repeat`, a non-positive one multiplied, then
  // count * frequency + presence is subtracted (count = occurrences in the window).
  std::vector<TokenCandidate> Penalized(std::span<const float> logits) const;

 private:
  int32_t last_n_;
  float repeat_, frequency_, presence_;
  std::deque<int32_t> window_;
  std::unordered_map<int32_t, int32_t> counts_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_PENALTIES_H_
