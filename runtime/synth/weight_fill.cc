// Random weight generation per GGML type: float types from values, quantized types from codes.
#include "runtime/synth/weight_fill.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

#include "quant/bf16.h"
#include "quant/fp16.h"
#include "quant/mxfp4.h"
#include "quant/q4_k.h"
#include "quant/q5_k.h"
#include "quant/q6_k.h"
#include "quant/q8_0.h"
#include "runtime/synth/random_stream.h"

namespace cpubrrr::synth {
namespace {

// Blocks per random stream: fixed so the output does not depend on the thread count.
constexpr size_t kBlocksPerChunk = 4096;

void FillRandomBytes(RandomStream& rng, uint8_t* dst, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    uint64_t r = rng.Next();
    std::memcpy(dst + i, &r, std::min<size_t>(8, n - i));
  }
}

// Returns an integer uniform in [lo, hi].
int UniformInt(RandomStream& rng, int lo, int hi) {
  return lo + static_cast<int>(rng.Next() % static_cast<uint64_t>(hi - lo + 1));
}

void FillFloatBlock(GgmlType type, const WeightInit& init, RandomStream& rng, uint8_t* dst) {
  float v = init.mean + init.std * rng.Normal();
  if (type == GgmlType::kF32) {
    std::memcpy(dst, &v, 4);
  } else {
    uint16_t h = type == GgmlType::kF16 ? Fp32ToFp16(v) : Fp32ToBf16(v);
    std::memcpy(dst, &h, 2);
  }
}

// Q8_0: codes uniform in [-127, 127] have std sqrt((255^2 - 1) / 12) = 73.6.
void FillQ8_0Block(float std, RandomStream& rng, BlockQ8_0* b) {
  b->d = Fp32ToFp16(std / 73.6f);
  for (int8_t& q : b->qs) q = static_cast<int8_t>(UniformInt(rng, -127, 127));
}

// MXFP4: uniform E2M1 codes have RMS 2.926 (values 0..6); the block exponent sets scale.
void FillMxfp4Block(float std, RandomStream& rng, BlockMxfp4* b) {
  int e = 127 + static_cast<int>(std::lround(std::log2(std / 2.926f))) + UniformInt(rng, -1, 1);
  b->e = static_cast<uint8_t>(std::clamp(e, 1, 254));
  FillRandomBytes(rng, b->qs, sizeof(b->qs));
}

// Q4_K: value = d*sc*q - dmin*m with q uniform in 0..15 (mean 7.5, std 4.61). Setting
// dmin = d and m = round(7.5*sc) centres each sub-block; sc in 4..8 keeps m <= 63 and
// averages 6, so d = std / (6 * 4.61).
void FillQ4KBlock(float std, RandomStream& rng, BlockQ4K* b) {
  uint16_t d = Fp32ToFp16(std / 27.7f);
  b->d = d;
  b->dmin = d;
  uint8_t sc[8], m[8];
  for (int j = 0; j < 8; ++j) {
    sc[j] = static_cast<uint8_t>(UniformInt(rng, 4, 8));
    m[j] = static_cast<uint8_t>(std::lround(7.5f * sc[j]));
  }
  PackScaleMinK4(sc, m, b->scales);
  FillRandomBytes(rng, b->qs, sizeof(b->qs));
}

// Q5_K: value = d*sc*q - dmin*m with q uniform in 0..31 (mean 15.5, std 9.23); sc in 2..4
// keeps m = round(15.5*sc) <= 63 and averages 3, so d = std / (3 * 9.23).
void FillQ5KBlock(float std, RandomStream& rng, BlockQ5K* b) {
  const uint16_t d = Fp32ToFp16(std / 27.7f);
  b->d = d;
  b->dmin = d;
  uint8_t sc[8], m[8];
  for (int j = 0; j < 8; ++j) {
    sc[j] = static_cast<uint8_t>(UniformInt(rng, 2, 4));
    m[j] = static_cast<uint8_t>(std::lround(15.5f * sc[j]));
  }
  PackScaleMinK4(sc, m, b->scales);
  FillRandomBytes(rng, b->qh, sizeof(b->qh));
  FillRandomBytes(rng, b->qs, sizeof(b->qs));
}

// Q6_K: value = d*scale*(q-32) with q uniform in 0..63 (std 18.5); scales in 8..16.
void FillQ6KBlock(float std, RandomStream& rng, BlockQ6K* b) {
  FillRandomBytes(rng, b->ql, sizeof(b->ql));
  FillRandomBytes(rng, b->qh, sizeof(b->qh));
  for (int8_t& s : b->scales) s = static_cast<int8_t>(UniformInt(rng, 8, 16));
  b->d = Fp32ToFp16(std / (12.0f * 18.5f));
}

void FillBlock(GgmlType type, const WeightInit& init, RandomStream& rng, uint8_t* dst) {
  switch (type) {
    case GgmlType::kQ8_0: return FillQ8_0Block(init.std, rng, reinterpret_cast<BlockQ8_0*>(dst));
    case GgmlType::kMXFP4: return FillMxfp4Block(init.std, rng, reinterpret_cast<BlockMxfp4*>(dst));
    case GgmlType::kQ4_K: return FillQ4KBlock(init.std, rng, reinterpret_cast<BlockQ4K*>(dst));
    case GgmlType::kQ5_K: return FillQ5KBlock(init.std, rng, reinterpret_cast<BlockQ5K*>(dst));
    case GgmlType::kQ6_K: return FillQ6KBlock(init.std, rng, reinterpret_cast<BlockQ6K*>(dst));
    default: return FillFloatBlock(type, init, rng, dst);
  }
}

void FillChunks(GgmlType type, const WeightInit& init, uint64_t seed, uint64_t name_hash,
                uint8_t* dst, size_t n_blocks, size_t block_bytes, size_t first_chunk,
                size_t chunk_step) {
  const size_t n_chunks = (n_blocks + kBlocksPerChunk - 1) / kBlocksPerChunk;
  for (size_t c = first_chunk; c < n_chunks; c += chunk_step) {
    RandomStream rng(seed, name_hash, c);
    const size_t end = std::min(n_blocks, (c + 1) * kBlocksPerChunk);
    for (size_t b = c * kBlocksPerChunk; b < end; ++b) {
      FillBlock(type, init, rng, dst + b * block_bytes);
    }
  }
}

}  // namespace

void FillWeights(GgmlType type, const WeightInit& init, uint64_t seed,
                 const std::string& name, uint8_t* dst, size_t bytes, int threads) {
  const size_t block_bytes = GeometryOf(type).block_bytes;
  const size_t n_blocks = bytes / block_bytes;
  const uint64_t name_hash = HashName(name);
  const size_t n_threads = static_cast<size_t>(std::max(1, threads));
  std::vector<std::thread> workers;
  for (size_t t = 1; t < n_threads; ++t) {
    workers.emplace_back(FillChunks, type, std::cref(init), seed, name_hash, dst, n_blocks,
                         block_bytes, t, n_threads);
  }
  FillChunks(type, init, seed, name_hash, dst, n_blocks, block_bytes, 0, n_threads);
  for (std::thread& w : workers) w.join();
}

}  // namespace cpubrrr::synth
