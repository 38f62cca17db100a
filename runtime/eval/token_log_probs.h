// Per-token scores of next-token logits, as llama-perplexity computes them: the negative
// log-likelihood of the true token, and the 16-bit log-probability rows its logits
// files hold.
#ifndef CPUBRRR_RUNTIME_EVAL_TOKEN_LOG_PROBS_H_
#define CPUBRRR_RUNTIME_EVAL_TOKEN_LOG_PROBS_H_

#include <cstddef>
#include <cstdint>

#include "absl/types/span.h"

namespace cpubrrr {

// Returns -log softmax(logits)[token].
double NegLogLikelihood(absl::Span<const float> logits, int32_t token);

// uint16 entries of one stored row for a vocabulary of n_vocab: two floats (scale and
// the smallest log-probability kept) then one code per token, padded to an even count.
size_t LogProbRowEntries(size_t n_vocab);

// Writes the log-probabilities of `logits` into `row` (LogProbRowEntries entries):
// log-probabilities within 16 of the largest are kept in 65535 steps, lower ones
// become the floor. Returns -log softmax(logits)[token].
double EncodeLogProbRow(absl::Span<const float> logits, int32_t token, absl::Span<uint16_t> row);

// The scale and floor that a stored row begins with.
struct LogProbRowHeader {
  float scale = 0;
  float min_log_prob = 0;
};
LogProbRowHeader ReadLogProbRowHeader(absl::Span<const uint16_t> row);

// Returns the log-probability row `row` stores for token i (header already read).
inline float StoredLogProb(const LogProbRowHeader& h, absl::Span<const uint16_t> row, size_t i) {
  return h.scale * row[4 + i] + h.min_log_prob;
}

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_EVAL_TOKEN_LOG_PROBS_H_
