// Q6_K super-blocks: 256 6-bit quants, 16 int8 sub-block scales, one fp16 scale (GGML type 14).
#ifndef CPUBRRR_QUANT_Q6_K_H_
#define CPUBRRR_QUANT_Q6_K_H_

#include <cstdint>

namespace cpubrrr {

inline constexpr int kQ6KBlockSize = 256;

// Element i has weight d * scales[i/16] * (q_i - 32), q_i in 0..63. Its low 4 bits are in
// `ql`, its high 2 bits in `qh`. Within half h (elements 128h..128h+127, ql + 64h,
// qh + 32h) and l in 0..31: element l uses the low nibble of ql[l] and qh bits 0-1,
// l+32 the low nibble of ql[l+32] and qh bits 2-3, l+64 the high nibble of ql[l] and
// qh bits 4-5, l+96 the high nibble of ql[l+32] and qh bits 6-7 (all of qh[l]).
struct BlockQ6K {
  uint8_t ql[kQ6KBlockSize / 2];
  uint8_t qh[kQ6KBlockSize / 4];
  int8_t scales[kQ6KBlockSize / 16];
  uint16_t d;  // fp16
};
static_assert(sizeof(BlockQ6K) == 210, "Q6_K block must be 210 bytes");

// Encodes n floats into n/256 blocks with ggml's reference search (per 16-element
// sub-block, a symmetric scale chosen among 19 candidate grids by weighted least
// squares, then 8-bit quantization of the scales). Byte-identical to
// quantize_row_q6_K_ref. Preconditions: n is a multiple of 256; every x is finite.
void QuantizeRowQ6K(const float* x, BlockQ6K* y, int64_t n);

// Decodes n/256 blocks into n floats. Precondition: n is a multiple of 256.
void DequantizeRowQ6K(const BlockQ6K* x, float* y, int64_t n);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_Q6_K_H_
