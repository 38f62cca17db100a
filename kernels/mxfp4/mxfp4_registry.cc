// The MXFP4 x Q8_0 variant list in priority order, and the pick for this CPU.
#include "kernels/common/cpu_features.h"
#include "kernels/common/few_tokens.h"
#include "kernels/mxfp4/mxfp4.h"

namespace cpubrrr {

// Built on first use: the AVX-512 entry's switch point is a run-time choice
// (kernels/common/few_tokens.h).
std::span<const Mxfp4Kernels> AllMxfp4Variants() {
  static const Mxfp4Kernels variants[] = {
#if defined(__aarch64__)
      // ZA-tile gemm; its gemv is the gemm on one token.
      {"sme", kCpuNeon | kCpuNeonDot | kCpuSme, Mxfp4GemvSme, Mxfp4GemmSme, kGemmIsGemv},
      {"neon_dot", kCpuNeon | kCpuNeonDot, Mxfp4GemvNeon, Mxfp4GemmNeon, kGemmIsGemv},
#endif
#if defined(__x86_64__)
      {"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, Mxfp4GemvAvx512, Mxfp4GemmAvx512, Avx512LaneTileFrom()},
      {"avx_vnni", kCpuAvx2 | kCpuAvxVnni, Mxfp4GemvAvxVnni, Mxfp4GemmAvxVnni, kMxfp4Avx2LaneTileFrom},
      {"avx2", kCpuAvx2, Mxfp4GemvAvx2, Mxfp4GemmAvx2, kMxfp4Avx2LaneTileFrom},
#endif
      {"hwy", kCpuNone, Mxfp4GemvHwy, Mxfp4GemmHwy, kGemmIsGemv},
      {"ref", kCpuNone, Mxfp4GemvRef, Mxfp4GemmRef, 1},
  };
  return variants;
}

const Mxfp4Kernels& BestMxfp4Kernels() {
  static const Mxfp4Kernels* best = [] {
    const std::span<const Mxfp4Kernels> all = AllMxfp4Variants();
    for (const Mxfp4Kernels& k : all) {
      if (HasFeatures(DetectCpuFeatures(), k.required)) return &k;
    }
    return &all.back();
  }();
  return *best;
}

}  // namespace cpubrrr
