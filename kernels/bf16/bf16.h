// bfloat16 weight kernels: every variant in priority order and the best one for this CPU.
// Ollama's gpt-oss blob keeps attention, token_embd and output in BF16.
#ifndef CPUBRRR_KERNELS_BF16_BF16_H_
#define CPUBRRR_KERNELS_BF16_BF16_H_

#include <span>

#include "kernels/bf16/bf16_kernels.h"

namespace cpubrrr {

// Returns every variant built into this binary, fastest first.
std::span<const Bf16Kernels> AllBf16Variants();

// Returns the first variant of AllBf16Variants() whose features this CPU has.
const Bf16Kernels& BestBf16Kernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_BF16_BF16_H_
