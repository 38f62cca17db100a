// The variants that read the repacked Q8_0 layout, in priority order: gemm only, since one
// token reads Q8_0 faster from the file's rows (docs/KERNELS.md, Q8_0 "Repacked layout").
#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

#if defined(__x86_64__)
constexpr Q8_0RepackedKernels kVariants[] = {
    {"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, nullptr, Q8_0RepackedGemmAvx512, "avx512_vnni"},
};
#endif

}  // namespace

std::span<const Q8_0RepackedKernels> AllQ8_0RepackedVariants() {
#if defined(__x86_64__)
  return kVariants;
#else
  return {};
#endif
}

const Q8_0RepackedKernels* BestQ8_0RepackedKernels() {
  static const Q8_0RepackedKernels* best = FirstRunnable(AllQ8_0RepackedVariants());
  return best;
}

}  // namespace cpubrrr
