// The Q8_0 variant list in priority order, and the pick for this CPU.
#include "kernels/common/cpu_features.h"
#include "kernels/q8_0/q8_0.h"

namespace cpubrrr {
namespace {

constexpr Q8_0Kernels kVariants[] = {
#if defined(__aarch64__)
    // SMOPA gemm; its gemv is the gemm on one token, the quantizer the NEON dotprod one.
    {"sme", kCpuNeon | kCpuNeonDot | kCpuSme, QuantizeQ8_0Neon, Q8_0GemvSme, Q8_0GemmSme, kGemmIsGemv},
    {"neon_dot", kCpuNeon | kCpuNeonDot, QuantizeQ8_0Neon, Q8_0GemvNeon, Q8_0GemmNeon, kGemmIsGemv},
#endif
#if defined(__x86_64__)
    {"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, QuantizeQ8_0Avx512, Q8_0GemvAvx512,
     Q8_0GemmAvx512, 1},
    // The quantizer is Highway's, whose AVX2 target this CPU runs.
    {"avx_vnni", kCpuAvx2 | kCpuAvxVnni, QuantizeQ8_0Hwy, Q8_0GemvAvxVnni, Q8_0GemmAvxVnni, kQ8_0Avx2LaneTileFrom},
    {"avx2", kCpuAvx2, QuantizeQ8_0Hwy, Q8_0GemvAvx2, Q8_0GemmAvx2, kQ8_0Avx2LaneTileFrom},
#endif
    {"hwy", kCpuNone, QuantizeQ8_0Hwy, Q8_0GemvHwy, Q8_0GemmHwy, kGemmIsGemv},
    {"ref", kCpuNone, QuantizeQ8_0Ref, Q8_0GemvRef, Q8_0GemmRef, 1},
};

}  // namespace

std::span<const Q8_0Kernels> AllQ8_0Variants() { return kVariants; }

const Q8_0Kernels& BestQ8_0Kernels() {
  static const Q8_0Kernels* best = [] {
    for (const Q8_0Kernels& k : kVariants) {
      if (HasFeatures(DetectCpuFeatures(), k.required)) return &k;
    }
    return &kVariants[std::size(kVariants) - 1];
  }();
  return *best;
}

}  // namespace cpubrrr
