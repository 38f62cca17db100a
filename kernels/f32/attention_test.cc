// DotRows / AxpyRows with f32 and f16 caches (Highway, every target) against the
// scalar references.
#include "kernels/f32/attention.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/f32/test_util.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

using testing::Gamma;
using testing::kF32Seed;
using testing::kU;

constexpr size_t kDims[] = {1, 3, 4, 5, 15, 16, 17, 32, 63, 64, 65, 128, 129};
constexpr size_t kRows[] = {1, 2, 7, 64, 300};

struct Cache {
  std::vector<float> f32;
  std::vector<uint16_t> f16;
};

// Returns n_rows rows of `stride` values; the f32 copy holds the fp16-rounded values so
// both cache types describe the same numbers.
Cache RandomCache(size_t n_rows, size_t stride, std::mt19937& rng) {
  Cache c;
  c.f32 = testing::RandomNormal(n_rows * stride, 2.0f, rng);
  for (float& v : c.f32) {
    c.f16.push_back(Fp32ToFp16(v));
    v = Fp16ToFp32(c.f16.back());
  }
  return c;
}

// Bound on |DotRows - DotRowsRef| for row j: the reference's double sum is exact to
// float precision, the Highway float sum runs in 4 accumulators of L lanes (L = 1 on
// the SCALAR target, the worst case): at most dim / 4 fused steps per lane, 3 to
// combine, log2(16) to reduce and up to 15 tail steps: gamma_{dim/4 + 22} of
// sum |q_i k_i|, scaled; plus 2 u for the scale. DotRowsF16's batched sums (L >= 4
// lanes) take dim / L steps per lane and log2(L) to reduce, inside the same bound.
double DotBound(const float* q, const float* row, size_t dim, float scale, float ref) {
  double mag = 0;
  for (size_t i = 0; i < dim; ++i) mag += std::fabs(q[i] * row[i]);
  return Gamma(dim / 4.0 + 22) * mag * std::fabs(scale) + 2 * kU * std::fabs(ref);
}

TEST(DotRows, MatchesReferenceForF32AndF16Keys) {
  std::mt19937 rng(kF32Seed);
  for (size_t dim : kDims) {
    for (size_t n_rows : kRows) {
      const size_t stride = dim + 5;  // rows padded, as a KV cache with other heads
      const std::vector<float> q = testing::RandomNormal(dim, 1.0f, rng);
      const Cache k = RandomCache(n_rows, stride, rng);
      const float scale = 0.125f;
      std::vector<float> ref(n_rows), ref16(n_rows);
      DotRowsRef(q.data(), k.f32.data(), stride, n_rows, dim, scale, ref.data());
      DotRowsF16Ref(q.data(), k.f16.data(), stride, n_rows, dim, scale, ref16.data());
      ASSERT_EQ(ref, ref16) << "the f16 reference must see the same values";
      testing::ForEachHwyTarget([&] {
        std::vector<float> out(n_rows, NAN), out16(n_rows, NAN);
        DotRows(q.data(), k.f32.data(), stride, n_rows, dim, scale, out.data());
        DotRowsF16(q.data(), k.f16.data(), stride, n_rows, dim, scale, out16.data());
        for (size_t j = 0; j < n_rows; ++j) {
          const double b = DotBound(q.data(), &k.f32[j * stride], dim, scale, ref[j]);
          ASSERT_NEAR(out[j], ref[j], b) << "dim " << dim << " row " << j;
          ASSERT_NEAR(out16[j], ref[j], b) << "f16 dim " << dim << " row " << j;
        }
      });
    }
  }
}

// Bound on |AxpyRows - AxpyRowsRef| for output i: each side sums n_rows + 1 terms
// (the initial value and the products) in the same order, the reference with two
// roundings per step and the fused version with one: both within
// gamma_{2 n_rows + 1} of |out_0| + sum_j |w_j v_ji|, so twice that apart.
TEST(AxpyRows, MatchesReferenceForF32AndF16Values) {
  std::mt19937 rng(kF32Seed + 1);
  for (size_t dim : kDims) {
    for (size_t n_rows : kRows) {
      const size_t stride = dim + 3;
      const std::vector<float> w = testing::RandomUniform(n_rows, 0.0f, 1.0f, rng);
      const Cache v = RandomCache(n_rows, stride, rng);
      const std::vector<float> init = testing::RandomNormal(dim, 1.0f, rng);
      std::vector<float> ref = init, ref16 = init;
      AxpyRowsRef(w.data(), v.f32.data(), stride, n_rows, dim, ref.data());
      AxpyRowsF16Ref(w.data(), v.f16.data(), stride, n_rows, dim, ref16.data());
      ASSERT_EQ(ref, ref16);
      testing::ForEachHwyTarget([&] {
        std::vector<float> out = init, out16 = init;
        AxpyRows(w.data(), v.f32.data(), stride, n_rows, dim, out.data());
        AxpyRowsF16(w.data(), v.f16.data(), stride, n_rows, dim, out16.data());
        for (size_t i = 0; i < dim; ++i) {
          double mag = std::fabs(init[i]);
          for (size_t j = 0; j < n_rows; ++j) mag += std::fabs(w[j] * v.f32[j * stride + i]);
          const double b = 2 * Gamma(2.0 * n_rows + 1) * mag;
          ASSERT_NEAR(out[i], ref[i], b) << "dim " << dim << " rows " << n_rows << " i " << i;
          ASSERT_NEAR(out16[i], ref[i], b) << "f16 dim " << dim << " i " << i;
        }
      });
    }
  }
}

// The grouped fp16 functions equal the single-query ones bit for bit, around the
// conversion chunk (32 rows), the vector width and the batch of keys summed together.
TEST(AttentionGroup, EqualsOneQueryAtATimeBitForBit) {
  std::mt19937 rng(kF32Seed + 3);
  for (size_t dim : {1, 15, 16, 17, 64, 65, 128, 256}) {
    for (size_t n_rows : {1, 31, 32, 33, 100}) {
      for (size_t n_q : {1, 3, 8}) {
        const size_t stride = dim + 5, q_stride = dim + 1, w_stride = n_rows + 2;
        const Cache c = RandomCache(n_rows, stride, rng);
        const std::vector<float> q = testing::RandomNormal(n_q * q_stride, 1.0f, rng);
        const std::vector<float> w = testing::RandomUniform(n_q * w_stride, 0.0f, 1.0f, rng);
        const std::vector<float> init = testing::RandomNormal(n_q * dim, 1.0f, rng);
        testing::ForEachHwyTarget([&] {
          std::vector<float> scores(n_q * w_stride, -1.0f), want_scores(scores);
          std::vector<float> out = init, want_out = init;
          DotRowsF16Group(q.data(), q_stride, n_q, c.f16.data(), stride, n_rows, dim, 0.125f,
                          scores.data(), w_stride);
          AxpyRowsF16Group(w.data(), w_stride, n_q, c.f16.data(), stride, n_rows, dim,
                           out.data(), dim);
          for (size_t g = 0; g < n_q; ++g) {
            DotRowsF16(q.data() + g * q_stride, c.f16.data(), stride, n_rows, dim, 0.125f,
                       want_scores.data() + g * w_stride);
            AxpyRowsF16(w.data() + g * w_stride, c.f16.data(), stride, n_rows, dim,
                        want_out.data() + g * dim);
          }
          ASSERT_EQ(0, std::memcmp(scores.data(), want_scores.data(), scores.size() * 4))
              << "dim " << dim << " rows " << n_rows << " queries " << n_q;
          ASSERT_EQ(0, std::memcmp(out.data(), want_out.data(), out.size() * 4))
              << "dim " << dim << " rows " << n_rows << " queries " << n_q;
        });
      }
    }
  }
}

// A key's f16 score has the same bits whichever keys share its batch: the rows from 1 on,
// scored alone, equal the same rows scored after row 0.
TEST(DotRowsF16, KeyScoreIndependentOfItsNeighbours) {
  std::mt19937 rng(kF32Seed + 4);
  for (size_t dim : {16, 64, 128}) {
    const size_t n_rows = 70, stride = dim + 3;
    const Cache c = RandomCache(n_rows, stride, rng);
    const std::vector<float> q = testing::RandomNormal(dim, 1.0f, rng);
    testing::ForEachHwyTarget([&] {
      std::vector<float> all(n_rows), shifted(n_rows - 1);
      DotRowsF16(q.data(), c.f16.data(), stride, n_rows, dim, 0.125f, all.data());
      DotRowsF16(q.data(), c.f16.data() + stride, stride, n_rows - 1, dim, 0.125f, shifted.data());
      ASSERT_EQ(0, std::memcmp(all.data() + 1, shifted.data(), shifted.size() * 4)) << "dim " << dim;
    });
  }
}

TEST(DotRows, ExactOnSmallIntegers) {
  // Integer inputs with small sums: every float step is exact, so all variants agree
  // bit for bit.
  const size_t dim = 64, n_rows = 9;
  std::vector<float> q(dim), k(n_rows * dim);
  for (size_t i = 0; i < dim; ++i) q[i] = static_cast<float>(int(i % 7) - 3);
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<float>(int(i % 5) - 2);
  std::vector<float> ref(n_rows), out(n_rows);
  DotRowsRef(q.data(), k.data(), dim, n_rows, dim, 0.5f, ref.data());
  testing::ForEachHwyTarget([&] {
    DotRows(q.data(), k.data(), dim, n_rows, dim, 0.5f, out.data());
    ASSERT_EQ(out, ref);
  });
}

// ggml_vec_dot_f32's float steps on x86 with AVX-512 written out one value at a time:
// value i < n & ~63 fused into lane i % 64; per l < 16, (lane l + lane l + 32) + (lane
// l + 16 + lane l + 48); those 16 by halves, quarters, then (0 + 2) + (1 + 3); then the
// values up to a multiple of 8 as rounded products added in turn, the last n % 8 fused.
float GgmlDotF32(const float* x, const float* y, size_t n) {
  const size_t np = n & ~size_t{63};
  float sum = 0.0f;
  if (np != 0) {
    float lane[64] = {};
    for (size_t i = 0; i < np; ++i) lane[i % 64] = std::fma(x[i], y[i], lane[i % 64]);
    float a[16], b[8], c[4];
    for (int l = 0; l < 16; ++l) a[l] = (lane[l] + lane[32 + l]) + (lane[16 + l] + lane[48 + l]);
    for (int l = 0; l < 8; ++l) b[l] = a[l + 8] + a[l];
    for (int l = 0; l < 4; ++l) c[l] = b[l + 4] + b[l];
    sum = (c[0] + c[2]) + (c[1] + c[3]);
  }
  size_t i = np;
  for (; i < np + ((n - np) & ~size_t{7}); ++i) {
    volatile float product = x[i] * y[i];  // rounded on its own, never fused into the sum
    sum = sum + product;
  }
  for (; i < n; ++i) sum = std::fma(x[i], y[i], sum);
  return sum;
}

TEST(DotRows, GgmlF32DotBits) {
  // The f32 dot (router, f32 attention) gives ggml's bits; rows of router length too.
  std::mt19937 rng(kF32Seed);
  for (size_t dim : {8, 64, 71, 128, 200, 2048, 2880}) {
    const size_t n_rows = 5;
    const std::vector<float> q = testing::RandomNormal(dim, 1.0f, rng);
    const std::vector<float> k = testing::RandomNormal(n_rows * dim, 1.0f, rng);
    std::vector<float> out(n_rows);
    DotRows(q.data(), k.data(), dim, n_rows, dim, 1.0f, out.data());
    for (size_t j = 0; j < n_rows; ++j) {
      const float want = GgmlDotF32(q.data(), k.data() + j * dim, dim);
      EXPECT_EQ(std::memcmp(&out[j], &want, sizeof(float)), 0) << "dim " << dim << " row " << j << ": " << out[j]
                                                                << " vs " << want;
    }
  }
}

}  // namespace
}  // namespace cpubrrr
