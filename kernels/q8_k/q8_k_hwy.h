// Portable Highway f32 -> Q8_K quantizer (run-time dispatch over the compiled targets).
#ifndef CPUBRRR_KERNELS_Q8_K_Q8_K_HWY_H_
#define CPUBRRR_KERNELS_Q8_K_Q8_K_HWY_H_

#include <cstdint>

#include "quant/q8_k.h"

namespace cpubrrr {

// Encodes n floats into n/256 blocks, byte-identical to QuantizeRowQ8K.
// Preconditions: n % 256 == 0; x finite.
void QuantizeQ8KHwy(const float* x, BlockQ8K* y, int64_t n);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_K_Q8_K_HWY_H_
