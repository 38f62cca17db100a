// The default sampling chain over a full vocabulary of logits.
#include "runtime/sampler/sampler.h"

namespace cpubrrr {

Sampler::Sampler(const SamplerParams& params)
    : params_(params),
      penalties_(params.penalty_last_n, params.repeat_penalty, params.frequency_penalty, params.presence_penalty),
      rng_(params.seed) {}

void Sampler::Reset() {
  penalties_.Reset();
  rng_ = Xoshiro256(params_.seed);
}

std::vector<TokenCandidate> Sampler::Distribution(std::span<const float> logits) const {
  const std::vector<TokenCandidate> penalized = penalties_.Penalized(logits);
  if (params_.temperature <= 0.0f) {
    std::vector<TokenCandidate> best = SelectTopK(logits, 1, penalized);
    if (!best.empty()) best[0].p = 1.0f;
    return best;
  }
  std::vector<TokenCandidate> c = SelectTopK(logits, params_.top_k, penalized);
  TopP(c, params_.top_p, params_.min_keep);
  MinP(c, params_.min_p, params_.min_keep);
  Temperature(c, params_.temperature);
  Softmax(c);
  return c;
}

SampleResult Sampler::Sample(std::span<const float> logits) {
  SampleResult r;
  std::vector<TokenCandidate> c = Distribution(logits);
  if (c.empty()) return r;
  r.token = c[0].id;
  if (c.size() > 1) {
    // Inverse-CDF draw, as llama.cpp's dist sampler: the first token whose running
    // sum reaches u * total.
    double total = 0.0;
    for (const TokenCandidate& t : c) total += t.p;
    const double target = rng_.Uniform() * total;
    double run = 0.0;
    r.token = c.back().id;
    for (const TokenCandidate& t : c) {
      run += t.p;
      if (run >= target) {
        r.token = t.id;
        break;
      }
    }
  }
  if (params_.logprobs >= 0) r.logprobs = ComputeLogprobs(logits, r.token, params_.logprobs);
  return r;
}

}  // namespace cpubrrr
