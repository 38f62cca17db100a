// RoPE (YaRN on gpt-oss parameters), softmax with sinks, RMSNorm and SwiGLU-OAI against
// llama.cpp's CPU backend, computed through small ggml graphs.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml.h"
#include "gtest/gtest.h"
#include "kernels/f32/rmsnorm.h"
#include "kernels/f32/rope.h"
#include "kernels/f32/rope_table.h"
#include "kernels/f32/softmax.h"
#include "kernels/f32/swiglu.h"
#include "kernels/f32/test_util.h"

namespace cpubrrr {
namespace {

using testing::Gamma;
using testing::kF32Seed;
using testing::kU;

// gpt-oss attention: head_dim 64, rope base 150000, YaRN factor 32 over 4096 positions,
// beta_fast 32, beta_slow 1; rms eps 1e-5.
constexpr int kHeadDim = 64;
constexpr float kBase = 150000.0f, kFactor = 32.0f, kBetaFast = 32.0f, kBetaSlow = 1.0f;
constexpr int kCtxOrig = 4096;

// A ggml context plus the CPU backend; Run() allocates, uploads inputs and computes.
class GgmlGraph {
 public:
  GgmlGraph() {
    static const bool loaded = [] {
      ggml_backend_load_all_from_path("external/llama_ref/bins");
      return true;
    }();
    (void)loaded;
    backend_ = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr);
    ggml_init_params params = {64 * ggml_tensor_overhead() + ggml_graph_overhead(),
                               nullptr, /*no_alloc=*/true};
    ctx_ = ggml_init(params);
  }
  ~GgmlGraph() {
    if (buffer_ != nullptr) ggml_backend_buffer_free(buffer_);
    ggml_free(ctx_);
    if (backend_ != nullptr) ggml_backend_free(backend_);
  }
  bool ok() const { return backend_ != nullptr; }
  ggml_context* ctx() { return ctx_; }

  // Computes `out` after copying each (tensor, bytes) input; returns out's floats.
  std::vector<float> Run(ggml_tensor* out,
                         const std::vector<std::pair<ggml_tensor*, const void*>>& inputs) {
    ggml_cgraph* graph = ggml_new_graph(ctx_);
    ggml_build_forward_expand(graph, out);
    buffer_ = ggml_backend_alloc_ctx_tensors(ctx_, backend_);
    for (const auto& [t, data] : inputs) ggml_backend_tensor_set(t, data, 0, ggml_nbytes(t));
    EXPECT_EQ(ggml_backend_graph_compute(backend_, graph), GGML_STATUS_SUCCESS);
    std::vector<float> result(ggml_nelements(out));
    ggml_backend_tensor_get(out, result.data(), 0, ggml_nbytes(out));
    return result;
  }

 private:
  ggml_backend_t backend_ = nullptr;
  ggml_context* ctx_ = nullptr;
  ggml_backend_buffer_t buffer_ = nullptr;
};

TEST(RopeVsGgml, CorrectionDimsAreIdentical) {
  for (float base : {10000.0f, 150000.0f, 1e6f}) {
    for (int n_dims : {64, 128}) {
      float ref[2], low, high;
      ggml_rope_yarn_corr_dims(n_dims, kCtxOrig, base, kBetaFast, kBetaSlow, ref);
      YarnCorrDims(n_dims, kCtxOrig, base, kBetaFast, kBetaSlow, &low, &high);
      EXPECT_EQ(low, ref[0]) << base << " " << n_dims;
      EXPECT_EQ(high, ref[1]) << base << " " << n_dims;
    }
  }
}

// Applies ggml_rope_ext (NeoX) to n_heads heads at each position and compares with
// RopeTable + RopeNeoxRef and + RopeNeox. Counts the bit-identical outputs of each.
void CompareRope(const RopeParams& p, int n_ctx_orig, float beta_fast, float beta_slow,
                 const std::vector<int32_t>& positions, const char* what) {
  const int hd = p.n_dims, n_heads = 8, n_pos = static_cast<int>(positions.size());
  std::mt19937 rng(kF32Seed);
  const std::vector<float> x = testing::RandomNormal(size_t{1} * hd * n_heads * n_pos, 2.0f, rng);
  GgmlGraph g;
  EXPECT_TRUE(g.ok());
  if (!g.ok()) return;
  ggml_tensor* a = ggml_new_tensor_3d(g.ctx(), GGML_TYPE_F32, hd, n_heads, n_pos);
  ggml_tensor* pos = ggml_new_tensor_1d(g.ctx(), GGML_TYPE_I32, n_pos);
  ggml_tensor* out = ggml_rope_ext(g.ctx(), a, pos, nullptr, hd, GGML_ROPE_TYPE_NEOX,
                                   n_ctx_orig, p.freq_base, p.freq_scale, p.ext_factor,
                                   p.attn_factor, beta_fast, beta_slow);
  const std::vector<float> ref = g.Run(out, {{a, x.data()}, {pos, positions.data()}});

  std::vector<float> c(hd / 2), s(hd / 2);
  std::vector<float> ours = x, ours_hwy = x;
  size_t identical = 0, identical_hwy = 0;
  for (int t = 0; t < n_pos; ++t) {
    RopeTable(p, positions[t], c.data(), s.data());
    const size_t off = size_t{1} * t * hd * n_heads;
    RopeNeoxRef(ours.data() + off, n_heads, hd, hd, c.data(), s.data());
    RopeNeox(ours_hwy.data() + off, n_heads, hd, hd, c.data(), s.data());
    for (int h = 0; h < n_heads; ++h) {
      for (int j = 0; j < hd / 2; ++j) {
        // ggml may round the YaRN blend and the rotation with fused multiply-adds
        // (compiler contraction): the angle then differs by up to 2 u of the
        // extrapolated angle th_ex = pos base^(-2j/hd), i.e. cos/sin by that times the
        // magnitude, and the rotation by 4 u of |x0| + |x1| as RopeNeox's bound.
        const double th_ex = positions[t] * std::pow(double{p.freq_base}, -2.0 * j / hd);
        const double mag = std::fabs(c[j]) + std::fabs(s[j]);
        const size_t i0 = off + size_t{1} * h * hd + j, i1 = i0 + hd / 2;
        const double xs = std::fabs(x[i0]) + std::fabs(x[i1]);
        const double bound = xs * (mag * (2 * kU * th_ex + 4 * kU) + 4 * kU * mag);
        for (size_t i : {i0, i1}) {
          EXPECT_NEAR(ours[i], ref[i], bound) << "ref pos " << positions[t] << " pair " << j;
          EXPECT_NEAR(ours_hwy[i], ref[i], bound) << "hwy pos " << positions[t] << " pair " << j;
          identical += ours[i] == ref[i];
          identical_hwy += ours_hwy[i] == ref[i];
        }
      }
    }
  }
  std::printf("%s: bit-identical to ggml: %zu (ref), %zu (hwy) of %zu\n", what, identical,
              identical_hwy, ours.size());
}

const std::vector<int32_t> kPositions = {0, 1, 5, 63, 127, 128, 1000, 4095, 4096, 20000, 65536, 131071};

TEST(RopeVsGgml, GptOssYarnMatchesLlamaCpp) {
  const RopeParams p = YarnRopeParams(kHeadDim, kBase, kFactor, kCtxOrig, kBetaFast, kBetaSlow, 1.0f);
  CompareRope(p, kCtxOrig, kBetaFast, kBetaSlow, kPositions, "gpt-oss YaRN rope");
}

TEST(RopeVsGgml, PlainRopeMatchesLlamaCpp) {
  // Qwen3: head_dim 128, base 1e6, no scaling (llama.cpp passes ext_factor 0).
  const RopeParams p = PlainRopeParams(128, 1e6f);
  CompareRope(p, 0, 32.0f, 1.0f, kPositions, "plain rope");
}

TEST(SoftmaxVsGgml, SinksMatchLlamaCpp) {
  // gpt-oss attention scores: rows of n_kv logits, one sink per head (ggml's ne[2]).
  const int n_kv = 517, n_tok = 3, n_head = 4;
  std::mt19937 rng(kF32Seed + 1);
  const std::vector<float> x = testing::RandomNormal(size_t{1} * n_kv * n_tok * n_head, 3.0f, rng);
  const std::vector<float> sinks = {-2.0f, 0.5f, 4.0f, 12.0f};
  GgmlGraph g;
  ASSERT_TRUE(g.ok());
  ggml_tensor* a = ggml_new_tensor_3d(g.ctx(), GGML_TYPE_F32, n_kv, n_tok, n_head);
  ggml_tensor* sk = ggml_new_tensor_1d(g.ctx(), GGML_TYPE_F32, n_head);
  ggml_tensor* out = ggml_soft_max_ext(g.ctx(), a, nullptr, 1.0f, 0.0f);
  ggml_soft_max_add_sinks(out, sk);
  const std::vector<float> ref = g.Run(out, {{a, x.data()}, {sk, sinks.data()}});
  // ggml's vector exp and ours are each within about 1.5 ulp (3 u) of the true value;
  // the sums (double of float partials in both) and the final scaling as in
  // softmax_test.cc: 3 u + 4 u + gamma_37 + 2 u.
  const double rel = 3 * kU + 4 * kU + Gamma(37) + 2 * kU;
  for (bool hwy : {false, true}) {
    std::vector<float> ours = x;
    for (int h = 0; h < n_head; ++h) {
      for (int t = 0; t < n_tok; ++t) {
        float* row = ours.data() + (size_t{1} * h * n_tok + t) * n_kv;
        (hwy ? SoftmaxWithSink : SoftmaxWithSinkRef)(row, n_kv, sinks[h]);
      }
    }
    for (size_t i = 0; i < ours.size(); ++i) {
      ASSERT_NEAR(ours[i], ref[i], rel * std::fabs(ref[i]) + 0x1p-120) << "hwy " << hwy << " i " << i;
    }
  }
}

TEST(SoftmaxVsGgml, VocabularyRowMatchesLlamaCpp) {
  const int n = 201088;
  std::mt19937 rng(kF32Seed + 2);
  const std::vector<float> x = testing::RandomNormal(n, 8.0f, rng);
  GgmlGraph g;
  ASSERT_TRUE(g.ok());
  ggml_tensor* a = ggml_new_tensor_1d(g.ctx(), GGML_TYPE_F32, n);
  const std::vector<float> ref = g.Run(ggml_soft_max(g.ctx(), a), {{a, x.data()}});
  const double rel = 3 * kU + 4 * kU + Gamma(37) + 2 * kU;
  for (bool hwy : {false, true}) {
    std::vector<float> ours = x;
    (hwy ? Softmax : SoftmaxRef)(ours.data(), n);
    for (int i = 0; i < n; ++i) {
      ASSERT_NEAR(ours[i], ref[i], rel * std::fabs(ref[i]) + 0x1p-120) << "hwy " << hwy << " i " << i;
    }
  }
}

TEST(RmsNormVsGgml, ReferenceAndHighwayAreBitExact) {
  for (int n : {2880, 2048, 64, 128}) {
    std::mt19937 rng(kF32Seed + n);
    const std::vector<float> x = testing::RandomNormal(n, 2.0f, rng);
    const std::vector<float> w = testing::RandomUniform(n, 0.1f, 3.0f, rng);
    for (bool weighted : {false, true}) {
      GgmlGraph g;
      ASSERT_TRUE(g.ok());
      ggml_tensor* a = ggml_new_tensor_1d(g.ctx(), GGML_TYPE_F32, n);
      ggml_tensor* wt = ggml_new_tensor_1d(g.ctx(), GGML_TYPE_F32, n);
      ggml_tensor* out = ggml_rms_norm(g.ctx(), a, 1e-5f);
      if (weighted) out = ggml_mul(g.ctx(), out, wt);
      const std::vector<float> ref = g.Run(out, {{a, x.data()}, {wt, w.data()}});
      std::vector<float> ours(n), ours_hwy(n);
      const float* wp = weighted ? w.data() : nullptr;
      RmsNormRef(x.data(), wp, n, 1e-5f, ours.data());
      RmsNorm(x.data(), wp, n, 1e-5f, ours_hwy.data());
      // ggml sums each float square into a double in order, as both of ours do: identical.
      ASSERT_EQ(ours, ref) << "n " << n << " weighted " << weighted;
      ASSERT_EQ(ours_hwy, ref) << "n " << n << " weighted " << weighted;
    }
  }
}

TEST(SwigluOaiVsGgml, ReferenceAndHighwayAreBitExact) {
  const int n = 2880;
  std::mt19937 rng(kF32Seed + 3);
  const std::vector<float> gate = testing::RandomNormal(n, 10.0f, rng);
  const std::vector<float> up = testing::RandomNormal(n, 10.0f, rng);
  GgmlGraph g;
  ASSERT_TRUE(g.ok());
  ggml_tensor* a = ggml_new_tensor_1d(g.ctx(), GGML_TYPE_F32, n);
  ggml_tensor* b = ggml_new_tensor_1d(g.ctx(), GGML_TYPE_F32, n);
  const std::vector<float> ref =
      g.Run(ggml_swiglu_oai(g.ctx(), a, b, 1.702f, 7.0f), {{a, gate.data()}, {b, up.data()}});
  std::vector<float> ours(n), ours_hwy(n);
  SwigluOaiRef(gate.data(), up.data(), n, 1.702f, 7.0f, ours.data());
  SwigluOai(gate.data(), up.data(), n, 1.702f, 7.0f, ours_hwy.data());
  // ggml's scalar loop is the reference's expression with the C library's expf, which
  // both of ours call: identical.
  ASSERT_EQ(ours, ref);
  ASSERT_EQ(ours_hwy, ref);
}

}  // namespace
}  // namespace cpubrrr
