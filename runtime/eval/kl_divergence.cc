// KL divergence against stored base log-probabilities and the report of its statistics.
#include "runtime/eval/kl_divergence.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/eval/token_log_probs.h"

namespace cpubrrr {
namespace {

double Covariance(double sum_a, double sum_b, double sum_ab, size_t count) {
  if (count < 10) return 0;
  return (sum_ab / count - (sum_a / count) * (sum_b / count)) / (count - 1);
}

// Linear interpolation between the closest ranks of sorted `values`.
float Percentile(const std::vector<float>& values, float fraction) {
  if (fraction <= 0) return values.front();
  if (fraction >= 1) return values.back();
  float p = fraction * (values.size() - 1);
  const size_t i = static_cast<size_t>(p);
  p -= i;
  return (1 - p) * values[i] + p * values[std::min(i + 1, values.size() - 1)];
}

float Median(const std::vector<float>& v) {
  const size_t n = v.size();
  return n % 2 == 0 ? 0.5f * (v[n / 2] + v[n / 2 - 1]) : v[n / 2];
}

}  // namespace

Estimate MeanAndError(double sum, double sum2, size_t count) {
  if (count < 1) return {};
  const double mean = sum / count;
  const double var = sum2 / count - mean * mean;
  return {mean, var > 0 && count > 10 ? std::sqrt(var / (count - 1)) : 0.0};
}

void KlDivergence::Add(absl::Span<const float> logits, absl::Span<const uint16_t> base_row,
                       int32_t token) {
  float max_logit = logits[0];
  size_t top = 0;
  for (size_t i = 1; i < logits.size(); ++i) {
    if (logits[i] > max_logit) {
      max_logit = logits[i];
      top = i;
    }
  }
  double sum_exp = 0;
  for (float v : logits) sum_exp += std::exp(v - max_logit);
  const float log_norm = max_logit + static_cast<float>(std::log(sum_exp));
  const LogProbRowHeader h = ReadLogProbRowHeader(base_row);

  const float nll = log_norm - logits[token];
  const float nll_base = -StoredLogProb(h, base_row, token);
  sum_nll_ += nll;
  sum_nll2_ += nll * nll;
  sum_nll_base_ += nll_base;
  sum_nll_base2_ += nll_base * nll_base;
  sum_nll_nll_base_ += nll * nll_base;

  double kl = 0;
  size_t top_base = 0;
  float best_base = 0;
  for (size_t i = 0; i < logits.size(); ++i) {
    const float lp_base = StoredLogProb(h, base_row, i);
    if (i == 0 || lp_base > best_base) {
      best_base = lp_base;
      top_base = i;
    }
    if (lp_base > -16.0f) kl += std::exp(lp_base) * (lp_base - (logits[i] - log_norm));
  }
  sum_kl_ += kl;
  sum_kl2_ += kl * kl;
  if (top == top_base) ++same_top_;
  ++count_;

  const float p_diff = std::exp(-nll) - std::exp(-nll_base);
  sum_p_diff_ += p_diff;
  sum_p_diff2_ += double(p_diff) * p_diff;
  sum_p_diff4_ += double(p_diff) * p_diff * p_diff * p_diff;
  kl_values_.push_back(static_cast<float>(kl));
  p_diff_values_.push_back(p_diff);
}

Estimate KlDivergence::Perplexity() const {
  const Estimate l = MeanAndError(sum_nll_, sum_nll2_, count_);
  return {std::exp(l.value), std::exp(l.value) * l.error};
}

Estimate KlDivergence::BasePerplexity() const {
  const Estimate l = MeanAndError(sum_nll_base_, sum_nll_base2_, count_);
  return {std::exp(l.value), std::exp(l.value) * l.error};
}

Estimate KlDivergence::LogPerplexityRatio() const {
  const Estimate a = MeanAndError(sum_nll_, sum_nll2_, count_);
  const Estimate b = MeanAndError(sum_nll_base_, sum_nll_base2_, count_);
  const double cov = Covariance(sum_nll_, sum_nll_base_, sum_nll_nll_base_, count_);
  return {a.value - b.value, std::sqrt(std::max(0.0, a.error * a.error + b.error * b.error - 2 * cov))};
}

Estimate KlDivergence::MeanKl() const { return MeanAndError(sum_kl_, sum_kl2_, count_); }

Estimate KlDivergence::RmsProbabilityChange() const {
  const Estimate mse = MeanAndError(sum_p_diff2_, sum_p_diff4_, count_);
  const double rms = std::sqrt(mse.value);
  return {rms, rms > 0 ? 0.5 / rms * mse.error : 0.0};
}

Estimate KlDivergence::SameTop() const {
  if (count_ < 2) return {count_ ? double(same_top_) / count_ : 0.0, 0.0};
  const double p = double(same_top_) / count_;
  return {p, std::sqrt(p * (1 - p) / (count_ - 1))};
}

std::string KlDivergence::ProgressLine(int chunk) const {
  const Estimate ppl = Perplexity(), ratio = LogPerplexityRatio(), kl = MeanKl();
  const Estimate rms = RmsProbabilityChange(), top = SameTop();
  return absl::StrFormat("%4d    %9.4f ± %9.4f    %10.5f ± %10.5f    %10.5f ± %10.5f    %6.3f ± %6.3f %%    %6.3f ± %6.3f %%",
                         chunk, ppl.value, ppl.error, ratio.value, ratio.error, kl.value,
                         kl.error, 100 * rms.value, 100 * rms.error, 100 * top.value,
                         100 * top.error);
}

std::string KlDivergence::Report() const {
  if (count_ < 100) return "";  // too few positions for statistics, as llama-perplexity
  std::vector<float> kl = kl_values_, dp = p_diff_values_;
  std::sort(kl.begin(), kl.end());
  std::sort(dp.begin(), dp.end());
  const Estimate ppl = Perplexity(), base = BasePerplexity(), ratio = LogPerplexityRatio();
  const Estimate l = MeanAndError(sum_nll_, sum_nll2_, count_);
  const Estimate lb = MeanAndError(sum_nll_base_, sum_nll_base2_, count_);
  const double cov = Covariance(sum_nll_, sum_nll_base_, sum_nll_nll_base_, count_);
  std::string out = "====== Perplexity statistics ======\n";
  absl::StrAppendFormat(&out, "Mean PPL(Q)                   : %10.6f ± %10.6f\n", ppl.value, ppl.error);
  absl::StrAppendFormat(&out, "Mean PPL(base)                : %10.6f ± %10.6f\n", base.value, base.error);
  absl::StrAppendFormat(&out, "Cor(ln(PPL(Q)), ln(PPL(base))): %6.2f%%\n", 100 * cov / (l.error * lb.error));
  absl::StrAppendFormat(&out, "Mean ln(PPL(Q)/PPL(base))     : %10.6f ± %10.6f\n", ratio.value, ratio.error);
  const double pr = std::exp(ratio.value);
  absl::StrAppendFormat(&out, "Mean PPL(Q)/PPL(base)         : %10.6f ± %10.6f\n", pr, pr * ratio.error);
  const double ppl_cov = ppl.value * base.value * cov;
  absl::StrAppendFormat(&out, "Mean PPL(Q)-PPL(base)         : %10.6f ± %10.6f\n\n", ppl.value - base.value,
                        std::sqrt(std::max(0.0, ppl.error * ppl.error + base.error * base.error - 2 * ppl_cov)));
  out += "====== KL divergence statistics ======\n";
  const Estimate mkl = MeanKl();
  absl::StrAppendFormat(&out, "Mean    KLD: %10.6f ± %10.6f\n", mkl.value, mkl.error);
  absl::StrAppendFormat(&out, "Maximum KLD: %10.6f\n", kl.back());
  for (float f : {0.999f, 0.99f, 0.95f, 0.90f}) {
    absl::StrAppendFormat(&out, "%4.1f%%   KLD: %10.6f\n", 100 * f, Percentile(kl, f));
  }
  absl::StrAppendFormat(&out, "Median  KLD: %10.6f\n", Median(kl));
  for (float f : {0.10f, 0.05f, 0.01f, 0.001f}) {
    absl::StrAppendFormat(&out, "%4.1f%%   KLD: %10.6f\n", 100 * f, Percentile(kl, f));
  }
  absl::StrAppendFormat(&out, "Minimum KLD: %10.6f\n\n", kl.front());
  out += "====== Token probability statistics ======\n";
  const Estimate mdp = MeanAndError(sum_p_diff_, sum_p_diff2_, count_);
  absl::StrAppendFormat(&out, "Mean    Δp: %6.3f ± %5.3f %%\n", 100 * mdp.value, 100 * mdp.error);
  absl::StrAppendFormat(&out, "Maximum Δp: %6.3f%%\n", 100 * dp.back());
  for (float f : {0.999f, 0.99f, 0.95f, 0.90f, 0.75f}) {
    absl::StrAppendFormat(&out, "%4.1f%%   Δp: %6.3f%%\n", 100 * f, 100 * Percentile(dp, f));
  }
  absl::StrAppendFormat(&out, "Median  Δp: %6.3f%%\n", 100 * Median(dp));
  for (float f : {0.25f, 0.10f, 0.05f, 0.01f, 0.001f}) {
    absl::StrAppendFormat(&out, "%4.1f%%   Δp: %6.3f%%\n", 100 * f, 100 * Percentile(dp, f));
  }
  absl::StrAppendFormat(&out, "Minimum Δp: %6.3f%%\n", 100 * dp.front());
  const Estimate rms = RmsProbabilityChange(), top = SameTop();
  absl::StrAppendFormat(&out, "RMS Δp    : %6.3f ± %5.3f %%\n", 100 * rms.value, 100 * rms.error);
  absl::StrAppendFormat(&out, "Same top p: %6.3f ± %5.3f %%\n", 100 * top.value, 100 * top.error);
  return out;
}

}  // namespace cpubrrr
