// The Q8_K quantizer variants in priority order and the CPU-feature based choice.
#include <array>

#include "kernels/common/cpu_features.h"
#include "kernels/q8_k/q8_k.h"
#include "kernels/q8_k/q8_k_hwy.h"
#if defined(__x86_64__)
#include "kernels/q8_k/q8_k_avx512.h"
#endif

namespace cpubrrr {
namespace {

constexpr std::array kQuantizers = {
#if defined(__x86_64__)
    Q8KQuantizer{"avx512", kCpuAvx512, QuantizeQ8KAvx512},
#endif
    Q8KQuantizer{"hwy", kCpuNone, QuantizeQ8KHwy},
    Q8KQuantizer{"ref", kCpuNone, QuantizeRowQ8K},
};

}  // namespace

std::span<const Q8KQuantizer> AllQ8KQuantizers() { return kQuantizers; }

const Q8KQuantizer& BestQ8KQuantizer() {
  static const Q8KQuantizer& best = []() -> const Q8KQuantizer& {
    const CpuFeatures have = DetectCpuFeatures();
    for (const Q8KQuantizer& q : kQuantizers) {
      if (HasFeatures(have, q.required)) return q;
    }
    return kQuantizers.back();
  }();
  return best;
}

}  // namespace cpubrrr
