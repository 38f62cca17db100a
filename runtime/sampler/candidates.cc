// Top-k selection over the vocabulary and the truncation steps of the sampling chain.
#include "runtime/sampler/candidates.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace cpubrrr {
namespace {

// Above this k, nth_element over all candidates beats a heap.
constexpr int64_t kHeapMaxK = 512;

std::vector<TokenCandidate> HeapTopK(std::span<const float> logits, size_t k) {
  // Min-heap (worst on top) of the best k seen so far.
  auto worse_on_top = [](const TokenCandidate& a, const TokenCandidate& b) { return Before(a, b); };
  std::vector<TokenCandidate> heap;
  heap.reserve(k + 1);
  const size_t n = logits.size();
  size_t i = 0;
  for (; i < n && heap.size() < k; ++i) heap.push_back({static_cast<int32_t>(i), logits[i]});
  std::make_heap(heap.begin(), heap.end(), worse_on_top);
  float threshold = heap.empty() ? 0.0f : heap.front().logit;
  for (; i < n; ++i) {
    // Strictly greater only: equal logits lose to the lower ids already held.
    if (logits[i] > threshold) {
      std::pop_heap(heap.begin(), heap.end(), worse_on_top);
      heap.back() = {static_cast<int32_t>(i), logits[i]};
      std::push_heap(heap.begin(), heap.end(), worse_on_top);
      threshold = heap.front().logit;
    }
  }
  std::sort(heap.begin(), heap.end(), Before);
  return heap;
}

std::vector<TokenCandidate> FullTopK(std::span<const float> logits, size_t k) {
  std::vector<TokenCandidate> all(logits.size());
  for (size_t i = 0; i < logits.size(); ++i) all[i] = {static_cast<int32_t>(i), logits[i]};
  if (k < all.size()) {
    std::nth_element(all.begin(), all.begin() + k, all.end(), Before);
    all.resize(k);
  }
  std::sort(all.begin(), all.end(), Before);
  return all;
}

}  // namespace

std::vector<TokenCandidate> SelectTopK(std::span<const float> logits, int64_t k,
                                       std::span<const TokenCandidate> overrides) {
  const int64_t vocab = static_cast<int64_t>(logits.size());
  if (k <= 0 || k > vocab) k = vocab;
  // A token outside the raw top (k + overrides) cannot enter the effective top k: at most
  // k - 1 unchanged tokens and the overridden ones rank above it.
  const int64_t wide = std::min<int64_t>(vocab, k + static_cast<int64_t>(overrides.size()));
  std::vector<TokenCandidate> c = wide <= kHeapMaxK ? HeapTopK(logits, wide) : FullTopK(logits, wide);
  if (overrides.empty()) return c;
  std::unordered_map<int32_t, float> by_id;
  for (const TokenCandidate& o : overrides) by_id[o.id] = o.logit;
  std::erase_if(c, [&](const TokenCandidate& t) { return by_id.count(t.id) > 0; });
  for (const auto& [id, logit] : by_id) c.push_back({id, logit});
  std::sort(c.begin(), c.end(), Before);
  if (static_cast<int64_t>(c.size()) > k) c.resize(k);
  return c;
}

void Softmax(std::vector<TokenCandidate>& c) {
  if (c.empty()) return;
  float max_l = c[0].logit;
  for (const TokenCandidate& t : c) max_l = std::max(max_l, t.logit);
  float sum = 0.0f;
  for (TokenCandidate& t : c) {
    t.p = std::exp(t.logit - max_l);
    sum += t.p;
  }
  for (TokenCandidate& t : c) t.p /= sum;
}

void TopP(std::vector<TokenCandidate>& c, float p, int32_t min_keep) {
  if (p >= 1.0f || c.empty()) return;
  Softmax(c);
  float cum = 0.0f;
  for (size_t i = 0; i < c.size(); ++i) {
    cum += c[i].p;
    if (cum >= p && static_cast<int64_t>(i) + 1 >= min_keep) {
      c.resize(i + 1);
      return;
    }
  }
}

void MinP(std::vector<TokenCandidate>& c, float p, int32_t min_keep) {
  if (p <= 0.0f || c.empty()) return;
  const float min_logit = c[0].logit + std::log(p);
  size_t i = 1;  // the best token always stays
  while (i < c.size() && (c[i].logit >= min_logit || static_cast<int64_t>(i) < min_keep)) ++i;
  c.resize(i);
}

void Temperature(std::vector<TokenCandidate>& c, float t) {
  for (TokenCandidate& x : c) x.logit /= t;
}

}  // namespace cpubrrr
