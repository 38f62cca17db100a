// AVX-512 f32 -> Q8_K quantizer; call only where the CPU has AVX-512 F/BW/VL.
#ifndef CPUBRRR_KERNELS_Q8_K_Q8_K_AVX512_H_
#define CPUBRRR_KERNELS_Q8_K_Q8_K_AVX512_H_

#include <cstdint>

#include "quant/q8_k.h"

namespace cpubrrr {

// Encodes n floats into n/256 blocks, byte-identical to QuantizeRowQ8K.
// Preconditions: n % 256 == 0; x finite; the CPU has AVX-512 F/BW/VL.
void QuantizeQ8KAvx512(const float* x, BlockQ8K* y, int64_t n);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_K_Q8_K_AVX512_H_
