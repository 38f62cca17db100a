// Sampling parameters, with llama.cpp's defaults (common/common.h).
#ifndef CPUBRRR_RUNTIME_SAMPLER_SAMPLER_PARAMS_H_
#define CPUBRRR_RUNTIME_SAMPLER_SAMPLER_PARAMS_H_

#include <cstdint>

namespace cpubrrr {

struct SamplerParams {
  float temperature = 0.8f;      // <= 0: greedy
  int32_t top_k = 40;            // <= 0: off
  float top_p = 0.95f;           // >= 1: off
  float min_p = 0.05f;           // <= 0: off
  float repeat_penalty = 1.0f;   // 1: off; divides positive logits, multiplies negative ones
  float presence_penalty = 0.0f;
  float frequency_penalty = 0.0f;
  int32_t penalty_last_n = 64;   // window of accepted tokens the penalties look at; 0: off
  int32_t min_keep = 0;          // top-p and min-p keep at least this many (and always one)
  uint64_t seed = 0;
  int32_t logprobs = -1;         // < 0: none; 0: the chosen token's; N: also the top N
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_SAMPLER_PARAMS_H_
