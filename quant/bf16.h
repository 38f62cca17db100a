// bfloat16 <-> binary32 conversion, bit-compatible with ggml_fp32_to_bf16 / ggml_bf16_to_fp32.
#ifndef CPUBRRR_QUANT_BF16_H_
#define CPUBRRR_QUANT_BF16_H_

#include <cstdint>

namespace cpubrrr {

// Converts `f` to bf16 bits (the float's top 16 bits), rounding to nearest with ties to
// even; overflow becomes infinity. A NaN keeps its sign and top payload bits and is
// made quiet (bit 6 of the result set) so truncation can never turn it into infinity.
uint16_t Fp32ToBf16(float f);

// Converts bf16 bits `h` to float exactly (places them in the float's top 16 bits).
float Bf16ToFp32(uint16_t h);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_BF16_H_
