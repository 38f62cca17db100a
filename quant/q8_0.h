// Q8_0 blocks: 32 int8 quants with one fp16 scale (GGML type 8), scalar encode/decode.
#ifndef CPUBRRR_QUANT_Q8_0_H_
#define CPUBRRR_QUANT_Q8_0_H_

#include <cstdint>

namespace cpubrrr {

inline constexpr int kQ8_0BlockSize = 32;

// Element i of a block is d * qs[i], with d an fp16 bit pattern.
struct BlockQ8_0 {
  uint16_t d;
  int8_t qs[kQ8_0BlockSize];
};
static_assert(sizeof(BlockQ8_0) == 34, "Q8_0 block must be 34 bytes");

// Encodes n floats into n/32 blocks: d = max|x| / 127, q = round-half-away(x / d).
// Precondition: n is a multiple of 32 and every x is finite.
void QuantizeRowQ8_0(const float* x, BlockQ8_0* y, int64_t n);

// Decodes n/32 blocks into n floats. Precondition: n is a multiple of 32.
void DequantizeRowQ8_0(const BlockQ8_0* x, float* y, int64_t n);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_Q8_0_H_
