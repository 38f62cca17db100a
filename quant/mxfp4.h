// MXFP4 blocks: 32 E2M1 codes with one E8M0 exponent (GGML type 39), scalar encode/decode.
#ifndef CPUBRRR_QUANT_MXFP4_H_
#define CPUBRRR_QUANT_MXFP4_H_

#include <cstdint>

namespace cpubrrr {

inline constexpr int kMxfp4BlockSize = 32;

// Element j (0..15) is the low nibble of qs[j], element j+16 its high nibble. Each
// nibble is an E2M1 code; its value is kMxfp4DoubledValues[code] * E8m0ToFp32Half(e).
struct BlockMxfp4 {
  uint8_t e;
  uint8_t qs[kMxfp4BlockSize / 2];
};
static_assert(sizeof(BlockMxfp4) == 17, "MXFP4 block must be 17 bytes");

// E2M1 code -> twice its value ({0, .5, 1, 1.5, 2, 3, 4, 6}, then negated), so the
// table is integral; pair it with E8m0ToFp32Half, never with 2^(e-127).
inline constexpr int8_t kMxfp4DoubledValues[16] = {
    0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// Returns 2^(e-128): half the E8M0 scale 2^(e-127), to undo the doubled table. Exact for
// all 256 codes (e = 0 and 1 give the float subnormals 2^-128 and 2^-127; 255 gives
// 2^127; E8M0's NaN code 255 is not treated specially).
float E8m0ToFp32Half(uint8_t e);

// Encodes n floats into n/32 blocks: e = floor(log2(max|x|)) - 2 + 127 (so the largest
// magnitude lands in the top binade of E2M1), then each element takes the code whose
// value is nearest, the lowest code winning ties. An all-zero block gets e = 0.
// Preconditions: n is a multiple of 32; every x is finite; each block's max|x| is 0 or
// at least 2^-125 (below that ggml's exponent goes negative; we clamp e to 0).
void QuantizeRowMxfp4(const float* x, BlockMxfp4* y, int64_t n);

// Decodes n/32 blocks into n floats. Precondition: n is a multiple of 32.
void DequantizeRowMxfp4(const BlockMxfp4* x, float* y, int64_t n);

// Converts one 17-byte block of Ollama's old MXFP4 layout (GGUF type 4 in gpt-oss blobs
// pulled before about October 2025) to a GGUF MXFP4 block. The old layout keeps the
// exponent at byte 0, elements 0..15 in bytes 1..8 and elements 16..31 in bytes 9..16,
// each byte holding an even element in its low nibble and the next odd one in its high.
void ConvertOllamaLegacyMxfp4Block(const uint8_t* legacy, BlockMxfp4* out);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_MXFP4_H_
