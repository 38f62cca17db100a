// Unpacks the eight 6-bit scales and mins of a Q4_K or Q5_K super-block with 32-bit word ops.
#ifndef CPUBRRR_KERNELS_KQUANT_Q4_K_SCALES_H_
#define CPUBRRR_KERNELS_KQUANT_Q4_K_SCALES_H_

#include <cstdint>
#include <cstring>

namespace cpubrrr {

// Eight sub-block scales (bytes 0..7 of `sc`) and mins (bytes 0..7 of `m`) of one block.
struct Q4KScalesMins {
  uint64_t sc;
  uint64_t m;
};

// Unpacks the 12 bytes at `packed` (BlockQ4K::scales) four sub-blocks at a time. With
// a = bytes 0..3, b = bytes 4..7, c = bytes 8..11: scales 0..3 are the low 6 bits of a,
// mins 0..3 those of b; scales 4..7 take their low nibble from c and bits 4..5 from the
// top two bits of a, mins 4..7 the high nibble of c and the top two bits of b. Same
// result as GetScaleMinK4 for j = 0..7.
inline Q4KScalesMins UnpackQ4KScales(const uint8_t* packed) {
  uint32_t a, b, c;
  std::memcpy(&a, packed, 4);
  std::memcpy(&b, packed + 4, 4);
  std::memcpy(&c, packed + 8, 4);
  constexpr uint32_t kLow6 = 0x3F3F3F3Fu, kLow4 = 0x0F0F0F0Fu, kBits45 = 0x30303030u;
  const uint32_t sc_lo = a & kLow6;
  const uint32_t m_lo = b & kLow6;
  // (byte >> 6) << 4 equals (byte >> 2) & 0x30 per byte; the mask stops bits crossing bytes.
  const uint32_t sc_hi = (c & kLow4) | ((a >> 2) & kBits45);
  const uint32_t m_hi = ((c >> 4) & kLow4) | ((b >> 2) & kBits45);
  return {sc_lo | (uint64_t{sc_hi} << 32), m_lo | (uint64_t{m_hi} << 32)};
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_KQUANT_Q4_K_SCALES_H_
