// fp16 conversion by integer bit manipulation: no FPU rounding modes involved.
#include "quant/fp16.h"

#include <bit>

namespace cpubrrr {
namespace {

constexpr uint32_t kF32SignMask = 0x80000000u;
constexpr uint32_t kF32ExpMask = 0x7F800000u;
constexpr uint32_t kF32QuietBit = 0x00400000u;
constexpr int kF32Bias = 127;
constexpr int kF16Bias = 15;
// fp16 keeps 10 of float's 23 mantissa bits.
constexpr int kDroppedBits = 13;

// Shifts `m` right by `s` bits, rounding to nearest with ties to even. Needs s >= 1.
uint32_t ShiftRightRoundEven(uint32_t m, int s) {
  if (s > 31) return 0;  // m < 2^24 here, so m / 2^s < 1/2 and rounds to zero
  const uint32_t kept = m >> s;
  const uint32_t rest = m & ((1u << s) - 1);
  const uint32_t half = 1u << (s - 1);
  if (rest > half || (rest == half && (kept & 1u))) return kept + 1;
  return kept;
}

}  // namespace

uint16_t Fp32ToFp16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((bits & kF32SignMask) >> 16);
  const uint32_t abs = bits & ~kF32SignMask;
  if (abs > kF32ExpMask) return sign | 0x7E00;  // NaN
  if (abs == kF32ExpMask) return sign | 0x7C00;  // infinity
  const int exp = static_cast<int>(abs >> 23);
  uint32_t mant = abs & 0x007FFFFFu;
  if (exp != 0) mant |= 0x00800000u;  // implicit leading one
  // The fp16 exponent this value would get if it is normal in fp16.
  const int h_exp = exp - kF32Bias + kF16Bias;
  if (h_exp >= 1) {
    // Normal: round the 24-bit significand to 11 bits. A carry out of the mantissa
    // bumps the exponent, and a carry into exponent 31 yields infinity; both fall out
    // of adding the rounded significand to the exponent field.
    const uint32_t rounded = ShiftRightRoundEven(mant, kDroppedBits);
    const uint32_t h = (static_cast<uint32_t>(h_exp - 1) << 10) + rounded;
    return sign | static_cast<uint16_t>(h >= 0x7C00 ? 0x7C00 : h);
  }
  // Subnormal (or zero) in fp16, whose unit is 2^-24. The float is mant * 2^(exp-150),
  // or mant * 2^-149 when exp is 0, so the count of fp16 units is mant / 2^(126-exp).
  const int shift = 126 - (exp == 0 ? 1 : exp);
  return sign | static_cast<uint16_t>(ShiftRightRoundEven(mant, shift));
}

float Fp16ToFp32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  const uint32_t mant = h & 0x03FFu;
  if (exp == 0x1F) {
    const uint32_t nan_or_inf = kF32ExpMask | (mant << kDroppedBits);
    return std::bit_cast<float>(sign | nan_or_inf | (mant != 0 ? kF32QuietBit : 0));
  }
  if (exp != 0) {
    return std::bit_cast<float>(sign | ((exp - kF16Bias + kF32Bias) << 23) |
                                (mant << kDroppedBits));
  }
  // Zero or subnormal: mant * 2^-24 is exact in float.
  const float magnitude = static_cast<float>(mant) * 0x1p-24f;
  return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(magnitude));
}

}  // namespace cpubrrr
