// The Q6_K kernel variants in priority order and the CPU-feature based choice.
#include <array>

#include "kernels/common/cpu_features.h"
#include "kernels/common/few_tokens.h"
#include "kernels/q6_k/q6_k.h"
#include "kernels/q6_k/q6_k_hwy.h"
#include "kernels/q6_k/q6_k_ref.h"
#if defined(__x86_64__)
#include "kernels/q6_k/q6_k_avx2.h"
#include "kernels/q6_k/q6_k_avx512.h"
#elif defined(__aarch64__)
#include "kernels/q6_k/q6_k_neon.h"
#include "kernels/q6_k/q6_k_sme.h"
#endif

namespace cpubrrr {

// Built on first use: the AVX-512 entry's switch point is a run-time choice
// (kernels/common/few_tokens.h).
std::span<const Q6KKernels> AllQ6KVariants() {
  static const std::array variants = {
#if defined(__x86_64__)
      Q6KKernels{"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, Q6KGemvAvx512, Q6KGemmAvx512, true,
                 Avx512LaneTileFrom()},
      Q6KKernels{"avx_vnni", kCpuAvx2 | kCpuAvxVnni, Q6KGemvAvxVnni, Q6KGemmAvxVnni, false, 1},
      Q6KKernels{"avx2", kCpuAvx2, Q6KGemvAvx2, Q6KGemmAvx2, false, 1},
#elif defined(__aarch64__)
      Q6KKernels{"sme", kCpuSme, Q6KGemvSme, Q6KGemmSme, false, 1},
      Q6KKernels{"neon_dot", kCpuNeon | kCpuNeonDot, Q6KGemvNeon, Q6KGemmNeon, false, 1},
#endif
      Q6KKernels{"hwy", kCpuNone, Q6KGemvHwy, Q6KGemmHwy, false, 1},
      Q6KKernels{"ref", kCpuNone, Q6KGemvRef, Q6KGemmRef, false, 1},
  };
  return variants;
}

const Q6KKernels& BestQ6KKernels() {
  static const Q6KKernels& best = []() -> const Q6KKernels& {
    const CpuFeatures have = DetectCpuFeatures();
    const std::span<const Q6KKernels> all = AllQ6KVariants();
    for (const Q6KKernels& k : all) {
      if (HasFeatures(have, k.required)) return k;
    }
    return all.back();
  }();
  return best;
}

}  // namespace cpubrrr
