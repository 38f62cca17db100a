// Picks a token's experts and their weights from its router logits.
#ifndef CPUBRRR_MODELS_COMMON_ROUTING_H_
#define CPUBRRR_MODELS_COMMON_ROUTING_H_

#include <cstdint>

#include "models/common/arch_spec.h"

namespace cpubrrr {

// Writes the k chosen experts' ids (largest first, ties to the lower id) to `ids` and
// their weights to `weights`, from `n_expert` router logits, in llama.cpp's order of
// float operations. kTopKOfSoftmax overwrites `logits` with their softmax.
void RouteToken(RouterPolicy policy, float* logits, uint32_t n_expert, uint32_t k, int32_t* ids,
                float* weights);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_ROUTING_H_
