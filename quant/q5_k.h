// Q5_K super-blocks: 256 5-bit quants, 8 sub-blocks with 6-bit scale and min (GGML type 13).
#ifndef CPUBRRR_QUANT_Q5_K_H_
#define CPUBRRR_QUANT_Q5_K_H_

#include <cstdint>

#include "quant/q4_k.h"  // GetScaleMinK4, PackScaleMinK4: Q5_K packs scales as Q4_K does

namespace cpubrrr {

inline constexpr int kQ5KBlockSize = 256;

// Sub-block j (32 elements) has weight d*sc_j*q - dmin*m_j with q in 0..31; sc_j and m_j
// are 6-bit values packed in `scales` exactly as in Q4_K (GetScaleMinK4). Element i of
// sub-block j has its low 4 bits in qs[32*(j/2) + i] (low nibble for even j, high nibble
// for odd j) and its fifth bit in bit j of qh[i].
struct BlockQ5K {
  uint16_t d;     // fp16 scale of the sub-block scales
  uint16_t dmin;  // fp16 scale of the sub-block mins
  uint8_t scales[12];
  uint8_t qh[kQ5KBlockSize / 8];
  uint8_t qs[kQ5KBlockSize / 2];
};
static_assert(sizeof(BlockQ5K) == 176, "Q5_K block must be 176 bytes");

// Returns the 5-bit quant of element i (0..31) of sub-block j (0..7) of `b`.
inline int Q5KQuant(const BlockQ5K& b, int j, int i) {
  const int low = (b.qs[32 * (j / 2) + i] >> (4 * (j % 2))) & 0x0F;
  return low | (((b.qh[i] >> j) & 1) << 4);
}

// Encodes n floats into n/256 blocks with ggml's reference search (per sub-block a
// weighted least-squares fit of scale and min over 16 candidate grids, then 6-bit
// quantization of scales and mins against the block maxima). Byte-identical to
// quantize_row_q5_K_ref. Preconditions: n is a multiple of 256; every x is finite.
void QuantizeRowQ5K(const float* x, BlockQ5K* y, int64_t n);

// Decodes n/256 blocks into n floats. Precondition: n is a multiple of 256.
void DequantizeRowQ5K(const BlockQ5K* x, float* y, int64_t n);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_Q5_K_H_
