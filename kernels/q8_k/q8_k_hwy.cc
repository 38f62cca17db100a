// Highway f32 -> Q8_K quantizer, bit-exact with the scalar reference on every target.
#include "kernels/q8_k/q8_k_hwy.h"

#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/q8_k/q8_k_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void QuantizeBlock(const float* x, BlockQ8K* y) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Rebind<int8_t, decltype(df)> d8;
  const size_t n = hn::Lanes(df);
  auto amax = hn::Zero(df);
  for (size_t i = 0; i < kQ8KBlockSize; i += n) amax = hn::Max(amax, hn::Abs(hn::LoadU(df, x + i)));
  const float m = hn::GetLane(hn::MaxOfLanes(df, amax));
  if (m == 0) {
    *y = BlockQ8K{};
    return;
  }
  // The reference keeps the first element of largest magnitude, with its sign.
  float max = 0;
  for (size_t i = 0; i < kQ8KBlockSize; i += n) {
    const intptr_t hit = hn::FindFirstTrue(df, hn::Eq(hn::Abs(hn::LoadU(df, x + i)), hn::Set(df, m)));
    if (hit >= 0) {
      max = x[i + hit];
      break;
    }
  }
  const float inv = -127.0f / max;
  // Same rounding as the reference: adding 1.5 * 2^23 leaves the nearest integer (ties to
  // even) in the low mantissa bits, offset by 2^22. Keeping the low byte with its sign
  // reproduces the reference's int8 cast, also for the wrapped values of subnormal blocks.
  const auto scale = hn::Set(df, inv);
  const auto magic = hn::Set(df, 12582912.0f);
  const auto mantissa = hn::Set(di, 0x007FFFFF);
  const auto offset = hn::Set(di, 0x00400000);
  const auto cap = hn::Set(di, 127);
  const auto low_byte = hn::Set(di, 0xFF);
  const auto sign_bit = hn::Set(di, 0x80);
  for (size_t i = 0; i < kQ8KBlockSize; i += n) {
    const auto r = hn::Add(hn::Mul(scale, hn::LoadU(df, x + i)), magic);
    auto q = hn::Sub(hn::And(hn::BitCast(di, r), mantissa), offset);
    q = hn::Min(q, cap);
    q = hn::Sub(hn::Xor(hn::And(q, low_byte), sign_bit), sign_bit);
    hn::StoreU(hn::DemoteTo(d8, q), d8, y->qs + i);
  }
  // Sums of 16 quants: bias each to unsigned, sum groups of 8 bytes, remove the bias.
  const hn::ScalableTag<uint8_t> du8;
  const hn::Repartition<uint64_t, decltype(du8)> du64;
  const size_t nb = hn::Lanes(du8);
  uint64_t sums8[kQ8KBlockSize / 8];
  for (size_t i = 0; i < kQ8KBlockSize; i += nb) {
    const auto v = hn::Xor(hn::LoadU(du8, reinterpret_cast<const uint8_t*>(y->qs) + i),
                           hn::Set(du8, 0x80));
    hn::StoreU(hn::SumsOf8(v), du64, sums8 + i / 8);
  }
  constexpr int kBias = 16 * 128;  // 16 quants, each biased by 128
  for (int k = 0; k < kQ8KBlockSize / 16; ++k) {
    y->bsums[k] = static_cast<int16_t>(static_cast<int>(sums8[2 * k] + sums8[2 * k + 1]) - kBias);
  }
  y->d = 1 / inv;
}

void QuantizeRow(const float* x, BlockQ8K* y, int64_t n) {
  for (int64_t b = 0; b < n / kQ8KBlockSize; ++b) QuantizeBlock(x + b * kQ8KBlockSize, y + b);
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(QuantizeRow);

void QuantizeQ8KHwy(const float* x, BlockQ8K* y, int64_t n) {
  HWY_DYNAMIC_DISPATCH(QuantizeRow)(x, y, n);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE
