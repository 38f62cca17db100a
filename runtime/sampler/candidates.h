// Token candidates and the truncation steps of the sampling chain (llama.cpp semantics):
// top-k, top-p, min-p, temperature, softmax.
#ifndef CPUBRRR_RUNTIME_SAMPLER_CANDIDATES_H_
#define CPUBRRR_RUNTIME_SAMPLER_CANDIDATES_H_

#include <cstdint>
#include <span>
#include <vector>

namespace cpubrrr {

struct TokenCandidate {
  int32_t id;
  float logit;
  float p = 0.0f;  // set by Softmax
};

// Orders by descending logit, then ascending id (so ties are deterministic).
inline bool Before(const TokenCandidate& a, const TokenCandidate& b) {
  return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
}

// Returns the `k` best of `logits` (k clamped to the vocabulary), sorted by Before, where
// the tokens in `overrides` take the overriding logit instead of theirs. O(V) plus
// O(k log k): a bounded heap for small k, nth_element otherwise; never sorts the vocabulary.
std::vector<TokenCandidate> SelectTopK(std::span<const float> logits, int64_t k,
                                       std::span<const TokenCandidate> overrides = {});

// Sets p to the softmax of the logits (max-subtracted, float, as llama.cpp).
void Softmax(std::vector<TokenCandidate>& c);

// The steps below take candidates sorted by Before and keep them sorted.
// Keeps the smallest prefix whose probability (softmax at temperature 1) reaches `p`,
// and at least max(min_keep, 1) tokens. No-op for p >= 1.
void TopP(std::vector<TokenCandidate>& c, float p, int32_t min_keep);
// Keeps tokens whose logit >= max logit + log(p), i.e. probability >= p * max probability,
// and at least max(min_keep, 1). No-op for p <= 0.
void MinP(std::vector<TokenCandidate>& c, float p, int32_t min_keep);
// Divides logits by `t` (> 0).
void Temperature(std::vector<TokenCandidate>& c, float t);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_CANDIDATES_H_
