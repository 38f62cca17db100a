// IEEE fp16 weight kernels: every variant in priority order and the best one for this CPU.
// F16 GGUF files keep attention, token_embd and output in F16.
#ifndef CPUBRRR_KERNELS_F16_F16_H_
#define CPUBRRR_KERNELS_F16_F16_H_

#include <span>

#include "kernels/f16/f16_kernels.h"

namespace cpubrrr {

// Returns every variant built into this binary, fastest first.
std::span<const F16Kernels> AllF16Variants();

// Returns the first variant of AllF16Variants() whose features this CPU has.
const F16Kernels& BestF16Kernels();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F16_F16_H_
