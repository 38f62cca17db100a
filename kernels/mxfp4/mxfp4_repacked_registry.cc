// The variants that read the repacked MXFP4 layout, in priority order, and the pick for
// this CPU.
#include "kernels/mxfp4/mxfp4_repacked.h"

namespace cpubrrr {
namespace {

#if defined(__x86_64__)
constexpr Mxfp4RepackedKernels kVariants[] = {
    {"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, Mxfp4RepackedGemvAvx512, Mxfp4RepackedGemmAvx512, "avx512_vnni"},
    {"avx_vnni", kCpuAvx2 | kCpuAvxVnni, Mxfp4RepackedGemvAvxVnni, Mxfp4RepackedGemmAvxVnni, "avx_vnni"},
    {"avx2", kCpuAvx2, Mxfp4RepackedGemvAvx2, Mxfp4RepackedGemmAvx2, "avx2"},
};
#endif

}  // namespace

std::span<const Mxfp4RepackedKernels> AllMxfp4RepackedVariants() {
#if defined(__x86_64__)
  return kVariants;
#else
  return {};
#endif
}

const Mxfp4RepackedKernels* BestMxfp4RepackedKernels() {
  static const Mxfp4RepackedKernels* best = FirstRunnable(AllMxfp4RepackedVariants());
  return best;
}

}  // namespace cpubrrr
