// Penalty window bookkeeping and the penalized logits of recent tokens.
#include "runtime/sampler/penalties.h"

#include <algorithm>

namespace cpubrrr {

PenaltyWindow::PenaltyWindow(int32_t last_n, float repeat, float frequency, float presence)
    : last_n_(std::max(last_n, 0)), repeat_(repeat), frequency_(frequency), presence_(presence) {}

bool PenaltyWindow::disabled() const {
  return last_n_ == 0 || (repeat_ == 1.0f && frequency_ == 0.0f && presence_ == 0.0f);
}

void PenaltyWindow::Accept(int32_t token) {
  if (last_n_ == 0) return;
  if (static_cast<int32_t>(window_.size()) == last_n_) {
    int32_t old = window_.front();
    window_.pop_front();
    if (--counts_[old] == 0) counts_.erase(old);
  }
  window_.push_back(token);
  ++counts_[token];
}

void PenaltyWindow::Reset() {
  window_.clear();
  counts_.clear();
}

std::vector<TokenCandidate> PenaltyWindow::Penalized(std::span<const float> logits) const {
  std::vector<TokenCandidate> out;
  if (disabled()) return out;
  for (const auto& [id, count] : counts_) {
    if (id < 0 || static_cast<size_t>(id) >= logits.size()) continue;
    float l = logits[id];
    l = l <= 0.0f ? l * repeat_ : l / repeat_;
    l -= static_cast<float>(count) * frequency_ + presence_;
    out.push_back({id, l});
  }
  std::sort(out.begin(), out.end(), [](const TokenCandidate& a, const TokenCandidate& b) { return a.id < b.id; });
  return out;
}

}  // namespace cpubrrr
