// Top-k expert selection over router logits, as ggml's argsort, softmax and sum_rows.
#include "models/common/routing.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "kernels/f32/softmax.h"

namespace cpubrrr {

void RouteToken(RouterPolicy policy, float* logits, uint32_t n_expert, uint32_t k, int32_t* ids,
                float* weights) {
  if (policy == RouterPolicy::kTopKOfSoftmax) Softmax(logits, n_expert);
  std::vector<int32_t> order(n_expert);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t a, int32_t b) {
    return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
  });
  std::copy(order.begin(), order.begin() + k, ids);
  if (policy == RouterPolicy::kTopKOfSoftmax) {
    double total = 0;  // ggml's sum_rows: a double sum, rounded to float once
    for (uint32_t j = 0; j < k; ++j) total += logits[ids[j]];
    const float sum = static_cast<float>(total);
    for (uint32_t j = 0; j < k; ++j) weights[j] = logits[ids[j]] / sum;
    return;
  }
  for (uint32_t j = 0; j < k; ++j) weights[j] = logits[ids[j]];
  Softmax(weights, k);
}

}  // namespace cpubrrr
