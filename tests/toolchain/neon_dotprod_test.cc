// Checks that the aarch64 build runs NEON dotprod (vdotq_s32); elsewhere only the scalar sum.
#include <cstdint>

#include <gtest/gtest.h>

#if defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace {

// Lane i of the result: acc[i] + sum over j < 4 of a[4i+j] * b[4i+j].
void DotScalar(const int8_t* a, const int8_t* b, const int32_t* acc, int32_t* out) {
  for (int i = 0; i < 4; ++i) {
    out[i] = acc[i];
    for (int j = 0; j < 4; ++j) out[i] += a[4 * i + j] * b[4 * i + j];
  }
}

TEST(NeonDotprod, MatchesKnownResult) {
  int8_t a[16], b[16];
  for (int i = 0; i < 16; ++i) {
    a[i] = static_cast<int8_t>(i - 8);        // -8 .. 7
    b[i] = static_cast<int8_t>(i % 2 ? -128 : 127);
  }
  const int32_t acc[4] = {1, 2, 3, 4};
  // Lane i: acc + 127*(a[4i]+a[4i+2]) - 128*(a[4i+1]+a[4i+3]).
  const int32_t expected[4] = {1 + 127 * -14 - 128 * -12, 2 + 127 * -6 - 128 * -4,
                               3 + 127 * 2 - 128 * 4, 4 + 127 * 10 - 128 * 12};
  int32_t scalar[4];
  DotScalar(a, b, acc, scalar);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(scalar[i], expected[i]) << "lane " << i;

#if defined(__aarch64__)
#if !defined(__ARM_FEATURE_DOTPROD)
#error "expected -march=...+dotprod from the BUILD select()"
#endif
  int32_t neon[4];
  vst1q_s32(neon, vdotq_s32(vld1q_s32(acc), vld1q_s8(a), vld1q_s8(b)));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(neon[i], expected[i]) << "lane " << i;
#endif
}

}  // namespace
