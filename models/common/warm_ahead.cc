// The warmer's request for a layer: experts in task order, then the next dense weights.
#include "models/common/warm_ahead.h"

#include "models/common/linear.h"

namespace cpubrrr {

void WarmAhead(PageWarmer& warmer, const ModelWeights& w, const std::vector<uint32_t>& active, uint32_t il,
               size_t n_rows, std::vector<ByteSpan>& spans) {
  const LayerWeights& l = w.layers[il];
  spans.clear();
  auto add = [&](const WeightMatrix& m, uint32_t e) {
    // A repacked copy's pages are re-validated too (in memory or the cache file's), where
    // the pass reads them rather than the model file's.
    if (ReadsRepackedCopy(m, n_rows)) {
      spans.push_back({m.repacked + e * m.repacked_bytes, m.repacked_bytes});
    } else {
      spans.push_back({m.Row(e, 0), static_cast<size_t>(m.rows) * m.row_bytes});
    }
  };
  for (uint32_t e : active) {
    add(l.gate_exps, e);
    add(l.up_exps, e);
  }
  for (uint32_t e : active) add(l.down_exps, e);
  if (il + 1 < w.layers.size()) {
    const LayerWeights& next = w.layers[il + 1];
    for (const WeightMatrix* m : {&next.wq, &next.wk, &next.wv, &next.wo, &next.router}) add(*m, 0);
  } else {
    add(w.output, 0);
  }
  warmer.Warm(spans);
}

}  // namespace cpubrrr
