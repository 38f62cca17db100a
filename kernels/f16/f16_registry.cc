// The IEEE fp16-weight variant list in priority order and run-time choice among them.
#include "kernels/f16/f16.h"

namespace cpubrrr {

std::span<const F16Kernels> AllF16Variants() {
  static const F16Kernels kVariants[] = {kF16KernelsHwy, kF16KernelsRef};
  return kVariants;
}

const F16Kernels& BestF16Kernels() {
  static const F16Kernels& best = [] () -> const F16Kernels& {
    const CpuFeatures have = DetectCpuFeatures();
    for (const F16Kernels& k : AllF16Variants()) {
      if (HasFeatures(have, k.required)) return k;
    }
    return kF16KernelsRef;
  }();
  return best;
}

}  // namespace cpubrrr
