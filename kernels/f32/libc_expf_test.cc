// libc_expf::Exp (every Highway target) against the C library's expf, bit for bit, over a
// sweep of the float line and its edges.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/libc_expf_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/f32/libc_expf-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Writes exp of x[0, n) (n a multiple of 16) as the target computes it; returns whether
// it computed in vectors (libc_expf::kInVectors) rather than by std::exp per lane.
bool ExpImpl(const float* x, size_t n, float* e) {
  const hn::ScalableTag<float> d;
  for (size_t i = 0; i < n; i += hn::Lanes(d)) {
    hn::StoreU(libc_expf::Exp(d, hn::LoadU(d, x + i)), d, e + i);
  }
  return libc_expf::kInVectors;
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "gtest/gtest.h"
#include "kernels/f32/test_util.h"

namespace cpubrrr {
namespace {

HWY_EXPORT(ExpImpl);

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof(f));
  return f;
}

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

// Every kStride-th bit pattern of the float line (both signs: all exponents, subnormals,
// infinities and NaNs among them): 8 million floats, quick under the sanitizers too; 1
// checks every float (two minutes in an optimized build, by hand).
constexpr uint64_t kStride = 509;

// Every float within 2^12 ulps of each range edge and of 0, and the specials.
std::vector<float> EdgeInputs() {
  std::vector<float> x;
  const float edges[] = {0x1.62e42ep6f, -0x1.9fe368p6f, -0x1.9d1d9ep6f, 88.0f, -88.0f,
                         0.0f, -0.0f, 1.0f, -1.0f};
  for (float edge : edges) {
    for (int32_t step = -4096; step <= 4096; ++step) {
      x.push_back(FromBits(static_cast<uint32_t>(static_cast<int64_t>(Bits(edge)) + step)));
    }
  }
  x.push_back(std::numeric_limits<float>::infinity());
  x.push_back(-std::numeric_limits<float>::infinity());
  x.push_back(std::numeric_limits<float>::quiet_NaN());
  x.push_back(-std::numeric_limits<float>::quiet_NaN());
  return x;
}

// Checks x (its size a multiple of 16) on the current target; returns whether the target
// computed in vectors.
bool CheckBatch(const std::vector<float>& x) {
  std::vector<float> e(x.size());
  const bool in_vectors = HWY_DYNAMIC_DISPATCH(ExpImpl)(x.data(), x.size(), e.data());
  for (size_t i = 0; i < x.size(); ++i) {
    const float want = std::exp(x[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(e[i])) << "x " << x[i];
    } else if (Bits(e[i]) != Bits(want)) {
      ADD_FAILURE() << "x " << std::hexfloat << x[i] << ": " << e[i] << " vs " << want;
      return in_vectors;
    }
  }
  return in_vectors;
}

TEST(LibcExpf, EqualsTheCLibraryBitForBit) {
  int vector_targets = 0;
  testing::ForEachHwyTarget([&] {
    std::vector<float> x = EdgeInputs();
    while (x.size() % 16 != 0) x.push_back(0.5f);
    // Targets that call std::exp per lane equal it by construction: the edges suffice.
    if (!CheckBatch(x)) return;
    ++vector_targets;
    x.clear();
    for (uint64_t b = 0; b <= 0xffffffffu; b += kStride) {
      x.push_back(FromBits(static_cast<uint32_t>(b)));
      if (x.size() == (1u << 20)) {
        CheckBatch(x);
        x.clear();
      }
    }
    while (x.size() % 16 != 0) x.push_back(0.5f);
    CheckBatch(x);
  });
#if defined(__x86_64__)
  // x86 CPUs that run this suite have FMA: at least the AVX2 target computes in vectors.
  EXPECT_GT(vector_targets, 0);
#endif
}

}  // namespace
}  // namespace cpubrrr
#endif  // HWY_ONCE
