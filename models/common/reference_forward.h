// A scalar double-precision forward pass of gpt-oss and qwen3moe: the oracle for the fast path.
#ifndef CPUBRRR_MODELS_COMMON_REFERENCE_FORWARD_H_
#define CPUBRRR_MODELS_COMMON_REFERENCE_FORWARD_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "models/common/model_config.h"
#include "models/common/moe_weights.h"

namespace cpubrrr {

// Runs `tokens` at positions 0, 1, ... and returns the n_vocab next-token logits after
// the last one. Weights are decoded with quant/'s scalar decoders and every activation
// stays in double: no activation quantization, no cache rounding. Slow (it decodes
// every dense matrix once per call): meant for tiny models in tests.
// Preconditions: tokens is non-empty and every id is below config.n_vocab.
std::vector<double> ReferenceNextTokenLogits(const ModelConfig& config,
                                             const ModelWeights& weights,
                                             absl::Span<const int32_t> tokens);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_REFERENCE_FORWARD_H_
