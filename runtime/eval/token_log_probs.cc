// Log-softmax of logit rows and their 16-bit storage (the layout of llama-perplexity's
// --kl-divergence-base files, so either engine can read the other's).
#include "runtime/eval/token_log_probs.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace cpubrrr {
namespace {

// Log-probabilities below the largest by more than this are not told apart.
constexpr float kLogProbRange = 16.0f;

// The row's largest logit and log(sum exp(logit - largest)), summed in double.
struct LogSumExp {
  float max_logit;
  float log_sum;
};

LogSumExp ComputeLogSumExp(absl::Span<const float> logits) {
  float max_logit = logits[0];
  for (float v : logits) max_logit = std::max(max_logit, v);
  double sum = 0;
  for (float v : logits) sum += std::exp(v - max_logit);
  return {max_logit, static_cast<float>(std::log(sum))};
}

}  // namespace

double NegLogLikelihood(absl::Span<const float> logits, int32_t token) {
  const LogSumExp l = ComputeLogSumExp(logits);
  return static_cast<double>(l.max_logit) + l.log_sum - logits[token];
}

size_t LogProbRowEntries(size_t n_vocab) { return 2 * ((n_vocab + 1) / 2) + 4; }

double EncodeLogProbRow(absl::Span<const float> logits, int32_t token, absl::Span<uint16_t> row) {
  const LogSumExp l = ComputeLogSumExp(logits);
  float min_logit = logits[0];
  for (float v : logits) min_logit = std::min(min_logit, v);
  min_logit = std::max(min_logit, l.max_logit - kLogProbRange);
  const LogProbRowHeader h{(l.max_logit - min_logit) / 65535.0f, min_logit - l.max_logit - l.log_sum};
  std::memcpy(row.data(), &h.scale, sizeof(float));
  std::memcpy(row.data() + 2, &h.min_log_prob, sizeof(float));
  std::fill(row.begin() + 4, row.end(), 0);
  if (h.scale != 0) {
    const float inv = 1.0f / h.scale;
    for (size_t i = 0; i < logits.size(); ++i) {
      if (logits[i] > min_logit) row[4 + i] = static_cast<uint16_t>(std::lrintf(inv * (logits[i] - min_logit)));
    }
  }
  return static_cast<double>(l.max_logit) + l.log_sum - logits[token];
}

LogProbRowHeader ReadLogProbRowHeader(absl::Span<const uint16_t> row) {
  LogProbRowHeader h;
  std::memcpy(&h.scale, row.data(), sizeof(float));
  std::memcpy(&h.min_log_prob, row.data() + 2, sizeof(float));
  return h;
}

}  // namespace cpubrrr
