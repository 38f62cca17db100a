// Which pages the page warmer touches while a layer's experts run.
#ifndef CPUBRRR_MODELS_COMMON_WARM_AHEAD_H_
#define CPUBRRR_MODELS_COMMON_WARM_AHEAD_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/common/moe_weights.h"
#include "runtime/threading/page_warmer.h"

namespace cpubrrr {

// Asks `warmer` for the pages layer il's `active` experts will read, in the order the
// workers take them (every gate/up, then every down), then for the next layer's dense
// weights (the output head after the last layer), for a pass of n_rows rows. A matrix's
// repacked copy is asked for where the pass reads it rather than the file's rows.
// `spans` is the caller's buffer, reused between calls.
void WarmAhead(PageWarmer& warmer, const ModelWeights& w, const std::vector<uint32_t>& active, uint32_t il,
               size_t n_rows, std::vector<ByteSpan>& spans);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_WARM_AHEAD_H_
