// The Q4_K kernel variants in priority order and the CPU-feature based choice.
#include <array>

#include "kernels/common/cpu_features.h"
#include "kernels/common/few_tokens.h"
#include "kernels/q4_k/q4_k.h"
#include "kernels/q4_k/q4_k_hwy.h"
#include "kernels/q4_k/q4_k_ref.h"
#if defined(__x86_64__)
#include "kernels/q4_k/q4_k_avx2.h"
#include "kernels/q4_k/q4_k_avx512.h"
#elif defined(__aarch64__)
#include "kernels/q4_k/q4_k_neon.h"
#include "kernels/q4_k/q4_k_sme.h"
#endif

namespace cpubrrr {

// Built on first use: the AVX-512 entry's switch point is a run-time choice
// (kernels/common/few_tokens.h).
std::span<const Q4KKernels> AllQ4KVariants() {
  static const std::array variants = {
#if defined(__x86_64__)
      Q4KKernels{"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, Q4KGemvAvx512, Q4KGemmAvx512, true,
                 Avx512LaneTileFrom()},
      Q4KKernels{"avx_vnni", kCpuAvx2 | kCpuAvxVnni, Q4KGemvAvxVnni, Q4KGemmAvxVnni, false, 1},
      Q4KKernels{"avx2", kCpuAvx2, Q4KGemvAvx2, Q4KGemmAvx2, false, 1},
#elif defined(__aarch64__)
      Q4KKernels{"sme", kCpuSme, Q4KGemvSme, Q4KGemmSme, false, 1},
      Q4KKernels{"neon_dot", kCpuNeon | kCpuNeonDot, Q4KGemvNeon, Q4KGemmNeon, false, 1},
#endif
      Q4KKernels{"hwy", kCpuNone, Q4KGemvHwy, Q4KGemmHwy, false, 1},
      Q4KKernels{"ref", kCpuNone, Q4KGemvRef, Q4KGemmRef, false, 1},
  };
  return variants;
}

const Q4KKernels& BestQ4KKernels() {
  static const Q4KKernels& best = []() -> const Q4KKernels& {
    const CpuFeatures have = DetectCpuFeatures();
    const std::span<const Q4KKernels> all = AllQ4KVariants();
    for (const Q4KKernels& k : all) {
      if (HasFeatures(have, k.required)) return k;
    }
    return all.back();
  }();
  return best;
}

}  // namespace cpubrrr
