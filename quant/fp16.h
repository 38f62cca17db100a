// IEEE binary16 (fp16) <-> binary32 conversion, bit-compatible with ggml's scalar path.
#ifndef CPUBRRR_QUANT_FP16_H_
#define CPUBRRR_QUANT_FP16_H_

#include <cstdint>

namespace cpubrrr {

// Converts `f` to fp16 bits, rounding to nearest with ties to even. Results below the
// smallest subnormal round to signed zero, too-large values become signed infinity, and
// every NaN becomes the quiet NaN 0x7E00 with the input's sign (its payload is dropped).
uint16_t Fp32ToFp16(float f);

// Converts fp16 bits `h` to float; exact for every finite value and infinity. A NaN keeps
// its sign and payload and is returned quiet (quiet bit set), as a float multiply does.
float Fp16ToFp32(uint16_t h);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_FP16_H_
