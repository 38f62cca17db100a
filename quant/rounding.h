// Float-to-int rounding shared by the K-quant encoders, matching ggml's reference exactly.
#ifndef CPUBRRR_QUANT_ROUNDING_H_
#define CPUBRRR_QUANT_ROUNDING_H_

#include <bit>
#include <cstdint>

namespace cpubrrr {

// Rounds `v` to the nearest integer, ties to even, for |v| <= 2^22. It adds 1.5 * 2^23
// so that the float's spacing is exactly 1 and the FPU's own round-to-nearest-even does
// the rounding; the integer then sits in the low 23 mantissa bits, offset by 2^22.
// Outside that range the result is the same wrapped value ggml's encoders compute, which
// keeps our encoders byte-identical to the reference even for degenerate inputs.
inline int RoundNearestEven(float v) {
  constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23
  const uint32_t bits = std::bit_cast<uint32_t>(v + kMagic);
  return static_cast<int>(bits & 0x007FFFFFu) - 0x00400000;
}

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_ROUNDING_H_
