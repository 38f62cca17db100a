// Test helpers: seeded random inputs in several distributions and bit-exact comparisons.
#ifndef CPUBRRR_QUANT_TEST_UTIL_H_
#define CPUBRRR_QUANT_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace cpubrrr::testing {

// Fixed seed of every randomized quant test; failure messages print it.
inline constexpr uint32_t kSeed = 0x5EED2025u;

enum class Dist {
  kNormal,    // N(0, 1) times a random power of two in 2^-8 .. 2^8 per block
  kUniform,   // U(-1, 1) times the same per-block scale
  kOutliers,  // normal, with about 1 in 32 elements multiplied by 100
  kTiny,      // normal times 10^-12 .. 10^-4: fp16 scales go subnormal or to zero
  kOffset,    // U(0.5, 2) or U(-2, -0.5) per block: no sign change inside a block
};

inline constexpr Dist kAllDists[] = {Dist::kNormal, Dist::kUniform, Dist::kOutliers,
                                     Dist::kTiny, Dist::kOffset};

// Returns a short name of `d` for messages.
const char* DistName(Dist d);

// Returns n floats from `dist`, blocked so each block_size run shares one scale.
std::vector<float> RandomFloats(Dist dist, size_t n, size_t block_size, std::mt19937& rng);

// Returns n random bytes.
std::vector<uint8_t> RandomBytes(size_t n, std::mt19937& rng);

// Returns a random fp16 bit pattern that is finite (exponent field not all ones).
uint16_t RandomFiniteFp16(std::mt19937& rng);

// Returns "" if the n floats of a and b have identical bit patterns, else a message
// naming the first differing index and both values with their bits.
std::string FloatBitsDiff(const float* a, const float* b, size_t n);

// Returns "" if the byte ranges are identical, else a message naming the first
// differing block (of block_bytes) and byte offset.
std::string BytesDiff(const void* a, const void* b, size_t n, size_t block_bytes);

// Signatures of ggml's type-traits converters (ggml_to_float_t / ggml_from_float_t),
// spelled out here so this helper does not need llama.cpp's headers.
using RefToFloat = void (*)(const void* x, float* y, int64_t n);
using RefFromFloat = void (*)(const float* x, void* y, int64_t n);

// Returns `count` blocks of random bytes; `fix` then adjusts each block (for example to
// keep an fp16 scale finite).
template <typename Block, typename Fix>
std::vector<Block> RandomBlocks(size_t count, std::mt19937& rng, Fix fix) {
  std::vector<Block> blocks(count);
  const std::vector<uint8_t> bytes = RandomBytes(count * sizeof(Block), rng);
  std::memcpy(blocks.data(), bytes.data(), bytes.size());
  for (Block& b : blocks) fix(b);
  return blocks;
}

// Decodes `blocks` with ours and ref; returns "" if every float matches bit for bit.
template <typename Block>
std::string DecodeDiff(void (*ours)(const Block*, float*, int64_t), RefToFloat ref,
                       const std::vector<Block>& blocks, int block_elems) {
  const size_t n = blocks.size() * block_elems;
  std::vector<float> a(n), b(n);
  ours(blocks.data(), a.data(), static_cast<int64_t>(n));
  ref(blocks.data(), b.data(), static_cast<int64_t>(n));
  return FloatBitsDiff(a.data(), b.data(), n);
}

// Encodes x with ours and ref; returns "" if the blocks match byte for byte. Our output
// starts as 0xAA garbage and the reference's as zeros, so bytes we fail to write show up
// (the reference leaves Q8_K bsums of all-zero blocks unwritten, i.e. zero here).
template <typename Block>
std::string EncodeDiff(void (*ours)(const float*, Block*, int64_t), RefFromFloat ref,
                       const std::vector<float>& x, int block_elems) {
  const size_t blocks = x.size() / block_elems;
  std::vector<Block> a(blocks), b(blocks);
  std::memset(a.data(), 0xAA, blocks * sizeof(Block));
  std::memset(b.data(), 0, blocks * sizeof(Block));
  ours(x.data(), a.data(), static_cast<int64_t>(x.size()));
  ref(x.data(), b.data(), static_cast<int64_t>(x.size()));
  return BytesDiff(a.data(), b.data(), blocks * sizeof(Block), sizeof(Block));
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_QUANT_TEST_UTIL_H_
