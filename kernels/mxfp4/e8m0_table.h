// Constant table of 2^(e-128) for every E8M0 code, for SIMD kernels (POD, no code at load).
#ifndef CPUBRRR_KERNELS_MXFP4_E8M0_TABLE_H_
#define CPUBRRR_KERNELS_MXFP4_E8M0_TABLE_H_

#include <cstdint>

namespace cpubrrr {

struct E8m0HalfTable {
  float v[256];
};

// Returns the table entry by entry as E8m0ToFp32Half computes it: 2^(e-128) has float
// exponent field e-1 for e >= 2; e = 0 and 1 give the subnormals 2^-128 and 2^-127.
constexpr E8m0HalfTable MakeE8m0HalfTable() {
  E8m0HalfTable t{};
  for (uint32_t e = 0; e < 256; ++e) {
    t.v[e] = __builtin_bit_cast(float, e >= 2 ? (e - 1) << 23 : 0x00200000u << e);
  }
  return t;
}

inline constexpr E8m0HalfTable kE8m0Half = MakeE8m0HalfTable();

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_MXFP4_E8M0_TABLE_H_
