// Q4_K super-blocks: 256 4-bit quants, 8 sub-blocks with 6-bit scale and min (GGML type 12).
#ifndef CPUBRRR_QUANT_Q4_K_H_
#define CPUBRRR_QUANT_Q4_K_H_

#include <cstdint>

namespace cpubrrr {

inline constexpr int kQ4KBlockSize = 256;

// Sub-block j (32 elements) has weight d*sc_j*q - dmin*m_j with q in 0..15; sc_j and m_j
// are 6-bit values packed in `scales` (see GetScaleMinK4). Bytes qs[32p .. 32p+32) hold
// sub-block 2p in their low nibbles and sub-block 2p+1 in their high nibbles.
struct BlockQ4K {
  uint16_t d;     // fp16 scale of the sub-block scales
  uint16_t dmin;  // fp16 scale of the sub-block mins
  uint8_t scales[12];
  uint8_t qs[kQ4KBlockSize / 2];
};
static_assert(sizeof(BlockQ4K) == 144, "Q4_K block must be 144 bytes");

// Extracts the 6-bit scale `sc` and min `m` of sub-block j (0..7) from the 12 packed
// bytes: for j < 4 the low 6 bits of bytes j and j+4; for j >= 4 the nibbles of byte
// j+4 supply the low 4 bits and the top 2 bits of bytes j-4 (scale) and j (min) the rest.
void GetScaleMinK4(int j, const uint8_t* scales, uint8_t* sc, uint8_t* m);

// Packs eight 6-bit scales `sc` and mins `m` into the 12 bytes `scales`, the inverse of
// GetScaleMinK4. Precondition: every value is below 64.
void PackScaleMinK4(const uint8_t* sc, const uint8_t* m, uint8_t* scales);

// Encodes n floats into n/256 blocks with ggml's reference search (per sub-block a
// weighted least-squares fit of scale and min over 21 candidate grids, then 6-bit
// quantization of scales and mins against the block maxima). Byte-identical to
// quantize_row_q4_K_ref. Preconditions: n is a multiple of 256; every x is finite.
void QuantizeRowQ4K(const float* x, BlockQ4K* y, int64_t n);

// Decodes n/256 blocks into n floats. Precondition: n is a multiple of 256.
void DequantizeRowQ4K(const BlockQ4K* x, float* y, int64_t n);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_Q4_K_H_
