// POD table of one f32 -> Q8_K activation quantizer variant.
#ifndef CPUBRRR_KERNELS_Q8_K_Q8_K_KERNELS_H_
#define CPUBRRR_KERNELS_Q8_K_Q8_K_KERNELS_H_

#include <cstdint>

#include "quant/q8_k.h"

namespace cpubrrr {

struct Q8KQuantizer {
  const char* name;   // "ref", "hwy", "avx512"
  uint32_t required;  // CpuFeature bits (kernels/common/cpu_features.h) the variant needs
  // Encodes n floats into n/256 blocks, byte-identical to QuantizeRowQ8K (bsums of
  // all-zero blocks are written as zero). Preconditions: n % 256 == 0; x finite.
  void (*quantize)(const float* x, BlockQ8K* y, int64_t n);
};

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_Q8_K_Q8_K_KERNELS_H_
