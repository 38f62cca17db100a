// Compares next-token distributions with a stored base run: KL divergence, perplexity of
// both, the change in the true token's probability and top-token agreement, with the
// statistics llama-perplexity --kl-divergence prints.
#ifndef CPUBRRR_RUNTIME_EVAL_KL_DIVERGENCE_H_
#define CPUBRRR_RUNTIME_EVAL_KL_DIVERGENCE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"

namespace cpubrrr {

// A mean and its standard error.
struct Estimate {
  double value = 0;
  double error = 0;
};

class KlDivergence {
 public:
  // Adds one scored position: this run's logits, the base run's stored row for the same
  // position (LogProbRowEntries entries) and the true next token.
  void Add(absl::Span<const float> logits, absl::Span<const uint16_t> base_row, int32_t token);

  size_t count() const { return count_; }
  Estimate Perplexity() const;       // of this run
  Estimate BasePerplexity() const;   // of the base run
  Estimate LogPerplexityRatio() const;  // mean ln(PPL / PPL(base))
  Estimate MeanKl() const;
  Estimate RmsProbabilityChange() const;  // sqrt(mean (p - p_base)^2) of the true token
  Estimate SameTop() const;          // share of positions whose top token is the base's

  // The running line llama-perplexity prints after each chunk (chunk number first).
  std::string ProgressLine(int chunk) const;
  // The final report: perplexity, KL divergence and token probability statistics.
  std::string Report() const;

 private:
  double sum_nll_ = 0, sum_nll2_ = 0, sum_nll_base_ = 0, sum_nll_base2_ = 0;
  double sum_nll_nll_base_ = 0, sum_kl_ = 0, sum_kl2_ = 0;
  double sum_p_diff_ = 0, sum_p_diff2_ = 0, sum_p_diff4_ = 0;
  size_t same_top_ = 0, count_ = 0;
  std::vector<float> kl_values_, p_diff_values_;
};

// A mean of values whose sum and sum of squares are given, with its standard error
// (0 for ten or fewer values), as llama-perplexity states its uncertainties.
Estimate MeanAndError(double sum, double sum2, size_t count);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_EVAL_KL_DIVERGENCE_H_
