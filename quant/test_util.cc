// Seeded random inputs and bit-exact comparison helpers for the quant tests.
#include "quant/test_util.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cpubrrr::testing {

const char* DistName(Dist d) {
  switch (d) {
    case Dist::kNormal: return "normal";
    case Dist::kUniform: return "uniform";
    case Dist::kOutliers: return "outliers";
    case Dist::kTiny: return "tiny";
    case Dist::kOffset: return "offset";
  }
  return "?";
}

std::vector<float> RandomFloats(Dist dist, size_t n, size_t block_size, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> pow2(-8, 8);
  std::uniform_real_distribution<float> tiny_exp(-12.0f, -4.0f);
  std::uniform_int_distribution<int> one_in_32(0, 31);
  std::vector<float> out(n);
  for (size_t start = 0; start < n; start += block_size) {
    const float scale = std::ldexp(1.0f, pow2(rng));
    const float tiny = std::pow(10.0f, tiny_exp(rng));
    const float sign = unit(rng) < 0 ? -1.0f : 1.0f;
    for (size_t i = start; i < start + block_size && i < n; ++i) {
      switch (dist) {
        case Dist::kNormal: out[i] = normal(rng) * scale; break;
        case Dist::kUniform: out[i] = unit(rng) * scale; break;
        case Dist::kOutliers:
          out[i] = normal(rng) * (one_in_32(rng) == 0 ? 100.0f : 1.0f);
          break;
        case Dist::kTiny: out[i] = normal(rng) * tiny; break;
        case Dist::kOffset: out[i] = sign * (1.25f + 0.75f * unit(rng)); break;
      }
    }
  }
  return out;
}

std::vector<uint8_t> RandomBytes(size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<uint8_t> out(n);
  for (auto& b : out) b = static_cast<uint8_t>(byte(rng));
  return out;
}

uint16_t RandomFiniteFp16(std::mt19937& rng) {
  std::uniform_int_distribution<int> bits(0, 0xFFFF);
  uint16_t h = static_cast<uint16_t>(bits(rng));
  if ((h & 0x7C00) == 0x7C00) h &= 0xBFFF;  // clear the top exponent bit
  return h;
}

std::string FloatBitsDiff(const float* a, const float* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t ua = std::bit_cast<uint32_t>(a[i]);
    const uint32_t ub = std::bit_cast<uint32_t>(b[i]);
    if (ua != ub) {
      char msg[160];
      std::snprintf(msg, sizeof(msg), "index %zu: %.9g (0x%08X) vs %.9g (0x%08X)", i,
                    static_cast<double>(a[i]), ua, static_cast<double>(b[i]), ub);
      return msg;
    }
  }
  return "";
}

std::string BytesDiff(const void* a, const void* b, size_t n, size_t block_bytes) {
  const auto* pa = static_cast<const uint8_t*>(a);
  const auto* pb = static_cast<const uint8_t*>(b);
  if (std::memcmp(pa, pb, n) == 0) return "";
  size_t i = 0;
  while (pa[i] == pb[i]) ++i;
  char msg[160];
  std::snprintf(msg, sizeof(msg), "block %zu, byte %zu: 0x%02X vs 0x%02X", i / block_bytes,
                i % block_bytes, pa[i], pb[i]);
  return msg;
}

}  // namespace cpubrrr::testing
