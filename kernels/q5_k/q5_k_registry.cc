// The Q5_K kernel variants in priority order and the CPU-feature based choice.
#include <array>

#include "kernels/common/cpu_features.h"
#include "kernels/q5_k/q5_k.h"
#include "kernels/q5_k/q5_k_hwy.h"
#include "kernels/q5_k/q5_k_ref.h"
#if defined(__x86_64__)
#include "kernels/q5_k/q5_k_avx2.h"
#include "kernels/q5_k/q5_k_avx512.h"
#elif defined(__aarch64__)
#include "kernels/q5_k/q5_k_neon.h"
#endif

namespace cpubrrr {
namespace {

constexpr std::array kVariants = {
#if defined(__x86_64__)
    Q5KKernels{"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, Q5KGemvAvx512, Q5KGemmAvx512, true, 1},
    Q5KKernels{"avx_vnni", kCpuAvx2 | kCpuAvxVnni, Q5KGemvAvxVnni, Q5KGemmAvxVnni, false, 1},
    Q5KKernels{"avx2", kCpuAvx2, Q5KGemvAvx2, Q5KGemmAvx2, false, 1},
#elif defined(__aarch64__)
    Q5KKernels{"neon_dot", kCpuNeon | kCpuNeonDot, Q5KGemvNeon, Q5KGemmNeon, false, 1},
#endif
    Q5KKernels{"hwy", kCpuNone, Q5KGemvHwy, Q5KGemmHwy, false, 1},
    Q5KKernels{"ref", kCpuNone, Q5KGemvRef, Q5KGemmRef, false, 1},
};

}  // namespace

std::span<const Q5KKernels> AllQ5KVariants() { return kVariants; }

const Q5KKernels& BestQ5KKernels() {
  static const Q5KKernels& best = []() -> const Q5KKernels& {
    const CpuFeatures have = DetectCpuFeatures();
    for (const Q5KKernels& k : kVariants) {
      if (HasFeatures(have, k.required)) return k;
    }
    return kVariants.back();
  }();
  return best;
}

}  // namespace cpubrrr
