// Fills a tensor's bytes with deterministic random weights of a given type and spread.
#ifndef CPUBRRR_RUNTIME_SYNTH_WEIGHT_FILL_H_
#define CPUBRRR_RUNTIME_SYNTH_WEIGHT_FILL_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "quant/ggml_type.h"

namespace cpubrrr::synth {

// How a tensor's values are drawn: mean + std * N(0, 1), element by element.
struct WeightInit {
  float mean = 0.0f;
  float std = 0.0f;
};

// Fills `dst` (`bytes` long, a whole number of blocks of `type`) with random values of
// `type`. Quantized types get random codes with block scales chosen so the decoded
// values have roughly `init.std` spread around `init.mean` (quantized types support
// mean 0 only). The result depends only on (seed, name, type, init, bytes), not on
// `threads`.
void FillWeights(GgmlType type, const WeightInit& init, uint64_t seed,
                 const std::string& name, uint8_t* dst, size_t bytes, int threads);

}  // namespace cpubrrr::synth

#endif  // CPUBRRR_RUNTIME_SYNTH_WEIGHT_FILL_H_
