// Q8_K blocks: 256 int8 activation quants with a float scale and 16-element sums (GGML type 15).
#ifndef CPUBRRR_QUANT_Q8_K_H_
#define CPUBRRR_QUANT_Q8_K_H_

#include <cstdint>

namespace cpubrrr {

inline constexpr int kQ8KBlockSize = 256;

// Element i is d * qs[i]; bsums[k] = sum of qs[16k .. 16k+16), used by K-quant dot
// products to apply sub-block mins in integer arithmetic.
struct BlockQ8K {
  float d;
  int8_t qs[kQ8KBlockSize];
  int16_t bsums[kQ8KBlockSize / 16];
};
static_assert(sizeof(BlockQ8K) == 292, "Q8_K block must be 292 bytes");

// Encodes n floats into n/256 blocks: with `max` the signed value of largest magnitude,
// q = round-half-even(-127/max * x) capped at 127 and d = max / -127 (computed as the
// reciprocal of the float -127/max). An all-zero block is d = 0, qs = 0, bsums = 0 (ggml
// leaves bsums unwritten there). Preconditions: n is a multiple of 256; x finite.
void QuantizeRowQ8K(const float* x, BlockQ8K* y, int64_t n);

// Decodes n/256 blocks into n floats (bsums are not read). Precondition: n % 256 == 0.
void DequantizeRowQ8K(const BlockQ8K* x, float* y, int64_t n);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_Q8_K_H_
