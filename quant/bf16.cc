// bf16 conversion: bf16 is a float with the low 16 mantissa bits removed.
#include "quant/bf16.h"

#include <bit>

namespace cpubrrr {

uint16_t Fp32ToBf16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t upper = static_cast<uint16_t>(bits >> 16);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
    return upper | 0x0040u;  // NaN: set the bf16 quiet bit (float bit 22)
  }
  const uint32_t lower = bits & 0xFFFFu;
  // Round half to even on the dropped 16 bits; a carry may ripple into the exponent,
  // which correctly yields the next power of two or infinity.
  const bool round_up = lower > 0x8000u || (lower == 0x8000u && (upper & 1u));
  return static_cast<uint16_t>(upper + (round_up ? 1 : 0));
}

float Bf16ToFp32(uint16_t h) {
  return std::bit_cast<float>(static_cast<uint32_t>(h) << 16);
}

}  // namespace cpubrrr
