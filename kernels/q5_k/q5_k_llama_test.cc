// Checks the Q5_K oracle against llama.cpp's dequantizers and a double-precision dot product, and
// the ggml-order gemv against llama.cpp's own CPU backends' ggml_vec_dot_q5_K_q8_K bit for bit.
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "ggml.h"
#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "kernels/q5_k/q5_k.h"
#include "kernels/q5_k/q5_k_ref.h"
#include "kernels/q5_k/q5_k_test_util.h"
#include "quant/fp16.h"
#include "quant/q5_k.h"
#include "quant/q8_k.h"
#include "quant/test_util.h"

// ggml exports its Q8_K converters but leaves them out of the public headers.
extern "C" {
void quantize_row_q8_K_ref(const float* x, void* y, int64_t k);
void dequantize_row_q8_K(const void* x, float* y, int64_t k);
}

namespace cpubrrr {
namespace {

using testing::kSeed;

// With u = 2^-24, the oracle's result differs from the exact sum over blocks of
// dx * (d * isum - dmin * msum) by at most (n_blocks + 6) * u * B: per block the int ->
// float conversions, the two products, the difference and the product with dx round
// once each (6u, relative to dx * (|d isum| + |dmin msum|) <= that block's share of B), and
// the running sum adds at most n_blocks * u * B. B = sum over elements of
// |dx * q8| * (|d * sc * q| + |dmin * m|). llama.cpp's dequantized weights round
// d * sc, dmin * m, the product with q and the difference (3u of the same terms), its
// activations d * q8 (u); the double dot adds nothing at this scale. Total:
// (n_blocks + 10) * u * B.
double ErrorBound(const std::vector<BlockQ5K>& w, const std::vector<BlockQ8K>& x, size_t n_blocks) {
  double b_sum = 0;
  for (size_t b = 0; b < n_blocks; ++b) {
    const double d = Fp16ToFp32(w[b].d), dmin = Fp16ToFp32(w[b].dmin);
    for (int j = 0; j < 8; ++j) {
      uint8_t sc, m;
      GetScaleMinK4(j, w[b].scales, &sc, &m);
      for (int i = 0; i < 32; ++i) {
        const int q = Q5KQuant(w[b], j, i);
        b_sum += std::fabs(x[b].d * x[b].qs[32 * j + i]) * (std::fabs(d * sc * q) + std::fabs(dmin * m));
      }
    }
  }
  return (n_blocks + 10) * std::ldexp(1.0, -24) * b_sum;
}

TEST(Q5KVsLlama, OracleMatchesDequantizedDoubleDot) {
  std::mt19937 rng(kSeed);
  const auto to_float = ggml_get_type_traits(GGML_TYPE_Q5_K)->to_float;
  for (size_t n_blocks : {1, 8, 24}) {
    for (testing::Dist dist : testing::kAllDists) {
      constexpr size_t kRows = 12;
      const size_t n = n_blocks * kQ5KBlockSize;
      const std::vector<float> wf = testing::RandomFloats(dist, kRows * n, kQ5KBlockSize, rng);
      std::vector<BlockQ5K> w(kRows * n_blocks);
      QuantizeRowQ5K(wf.data(), w.data(), static_cast<int64_t>(wf.size()));
      const std::vector<float> xf = testing::RandomFloats(testing::Dist::kNormal, n, kQ8KBlockSize, rng);
      std::vector<BlockQ8K> x(n_blocks);
      quantize_row_q8_K_ref(xf.data(), x.data(), static_cast<int64_t>(n));
      std::vector<float> xd(n), wd(n), y(kRows);
      dequantize_row_q8_K(x.data(), xd.data(), static_cast<int64_t>(n));
      Q5KGemvRef(w.data(), n_blocks, kRows, x.data(), n_blocks, y.data());
      for (size_t r = 0; r < kRows; ++r) {
        to_float(w.data() + r * n_blocks, wd.data(), static_cast<int64_t>(n));
        double exact = 0;
        for (size_t i = 0; i < n; ++i) exact += static_cast<double>(wd[i]) * xd[i];
        const std::vector<BlockQ5K> row(w.begin() + r * n_blocks, w.begin() + (r + 1) * n_blocks);
        EXPECT_NEAR(y[r], exact, ErrorBound(row, x, n_blocks))
            << "seed " << kSeed << ", distribution " << testing::DistName(dist) << ", n_blocks "
            << n_blocks << ", row " << r;
      }
    }
  }
}

// llama.cpp's x86 CPU backends (one shared library per CPU generation, as the npm package
// ships them), in the test's runfiles.
constexpr char kBackendDir[] = "external/llama_ref/bins";

using VecDotFn = void (*)(int n, float* s, size_t bs, const void* vx, size_t bx, const void* vy,
                          size_t by, int nrc);

// One loaded backend library and its Q5_K x Q8_K dot product.
struct CpuBackend {
  std::string name;
  VecDotFn dot;
};

// Returns the backends built with AVX2 and FMA that run on this CPU (ggml_backend_score
// > 0), each initialized (ggml_cpu_init fills its fp16 table). Those all compile
// ggml_vec_dot_q5_K_q8_K's AVX2 path, the order the ggml-order gemv follows; the older
// builds (sse42, sandybridge, ...) take other paths and are left out. The libraries stay
// loaded for the process.
std::vector<CpuBackend> LoadAvx2Backends() {
  std::vector<CpuBackend> out;
  if (!std::filesystem::is_directory(kBackendDir)) return out;
  for (const auto& entry : std::filesystem::directory_iterator(kBackendDir)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("libggml-cpu-", 0) != 0) continue;
    void* lib = dlopen(entry.path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) continue;
    auto score = reinterpret_cast<int (*)()>(dlsym(lib, "ggml_backend_score"));
    auto has_avx2 = reinterpret_cast<int (*)()>(dlsym(lib, "ggml_cpu_has_avx2"));
    auto has_fma = reinterpret_cast<int (*)()>(dlsym(lib, "ggml_cpu_has_fma"));
    auto init = reinterpret_cast<void (*)()>(dlsym(lib, "ggml_cpu_init"));
    auto dot = reinterpret_cast<VecDotFn>(dlsym(lib, "ggml_vec_dot_q5_K_q8_K"));
    if (score == nullptr || has_avx2 == nullptr || has_fma == nullptr || init == nullptr ||
        dot == nullptr || score() <= 0 || !has_avx2() || !has_fma()) {
      dlclose(lib);
      continue;
    }
    init();
    out.push_back({file, dot});
  }
  return out;
}

// Our scalar model of ggml's x86 order, and every variant whose gemv claims that order on
// this CPU, give llama.cpp's vec_dot bits on real quantized rows (all distributions, row
// lengths around the AVX-512 gemv's 8-row tiles and block counts 1 .. 11).
TEST(Q5KVsLlama, GgmlOrderMatchesLlamaCpuBackendsBitForBit) {
  const std::vector<CpuBackend> backends = LoadAvx2Backends();
  if (!HasFeatures(DetectCpuFeatures(), kCpuAvx2)) {
    GTEST_SKIP() << "this CPU lacks AVX2 + FMA, so no llama.cpp x86 backend with that path runs";
  }
  ASSERT_FALSE(backends.empty()) << "no llama.cpp CPU backend with AVX2 + FMA loaded from " << kBackendDir;
  for (const CpuBackend& backend : backends) std::printf("checking %s\n", backend.name.c_str());
  std::vector<const Q5KKernels*> ordered;
  for (const Q5KKernels& k : AllQ5KVariants()) {
    const bool runs = HasFeatures(DetectCpuFeatures(), k.required);
    if (k.gemv_ggml_x86_order && runs) ordered.push_back(&k);
  }
  std::mt19937 rng(kSeed);
  for (size_t n_blocks : {1, 2, 3, 8, 11}) {
    for (testing::Dist dist : testing::kAllDists) {
      constexpr size_t kRows = 13;
      const size_t n = n_blocks * kQ5KBlockSize;
      const std::vector<float> wf = testing::RandomFloats(dist, kRows * n, kQ5KBlockSize, rng);
      std::vector<BlockQ5K> w(kRows * n_blocks);
      QuantizeRowQ5K(wf.data(), w.data(), static_cast<int64_t>(wf.size()));
      const std::vector<float> xf = testing::RandomFloats(testing::Dist::kNormal, n, kQ8KBlockSize, rng);
      std::vector<BlockQ8K> x(n_blocks);
      quantize_row_q8_K_ref(xf.data(), x.data(), static_cast<int64_t>(n));
      std::vector<float> model(kRows);
      testing::GgmlOrderQ5KGemm(w.data(), n_blocks, kRows, x.data(), n_blocks, 1, n_blocks,
                                model.data(), kRows);
      for (const CpuBackend& backend : backends) {
        std::vector<float> want(kRows);
        for (size_t r = 0; r < kRows; ++r) {
          backend.dot(static_cast<int>(n), &want[r], 0, w.data() + r * n_blocks, 0, x.data(), 0, 1);
        }
        EXPECT_EQ(testing::FloatBitsDiff(model.data(), want.data(), kRows), "")
            << "model vs " << backend.name << ", " << testing::DistName(dist) << ", n_blocks "
            << n_blocks;
        for (const Q5KKernels* k : ordered) {
          std::vector<float> got(kRows);
          k->gemv(w.data(), n_blocks, kRows, x.data(), n_blocks, got.data());
          EXPECT_EQ(testing::FloatBitsDiff(got.data(), want.data(), kRows), "")
              << k->name << " vs " << backend.name << ", " << testing::DistName(dist)
              << ", n_blocks " << n_blocks;
        }
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr
