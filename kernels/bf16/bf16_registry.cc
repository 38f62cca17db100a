// The bfloat16-weight variant list in priority order and run-time choice among them.
#include "kernels/bf16/bf16.h"

namespace cpubrrr {

std::span<const Bf16Kernels> AllBf16Variants() {
  static const Bf16Kernels kVariants[] = {kBf16KernelsHwy, kBf16KernelsRef};
  return kVariants;
}

const Bf16Kernels& BestBf16Kernels() {
  static const Bf16Kernels& best = [] () -> const Bf16Kernels& {
    const CpuFeatures have = DetectCpuFeatures();
    for (const Bf16Kernels& k : AllBf16Variants()) {
      if (HasFeatures(have, k.required)) return k;
    }
    return kBf16KernelsRef;
  }();
  return best;
}

}  // namespace cpubrrr
