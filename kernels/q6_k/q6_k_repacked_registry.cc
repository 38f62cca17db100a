// The variants that read the repacked Q6_K layout, in priority order, and the pick for
// this CPU.
#include "kernels/q6_k/q6_k_repacked.h"

namespace cpubrrr {
namespace {

#if defined(__x86_64__)
constexpr Q6KRepackedKernels kVariants[] = {
    {"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, Q6KRepackedGemvAvx512, Q6KRepackedGemmAvx512, "avx512_vnni"},
    // The GGUF layout's AVX2 kernels give these bits too (the oracle's); its gemm has no
    // AVX-VNNI form.
    {"avx_vnni", kCpuAvx2 | kCpuAvxVnni, Q6KRepackedGemvAvxVnni, Q6KRepackedGemmAvxVnni, "avx_vnni"},
    {"avx2", kCpuAvx2, Q6KRepackedGemvAvx2, Q6KRepackedGemmAvx2, "avx2"},
};
#endif

}  // namespace

std::span<const Q6KRepackedKernels> AllQ6KRepackedVariants() {
#if defined(__x86_64__)
  return kVariants;
#else
  return {};
#endif
}

const Q6KRepackedKernels* BestQ6KRepackedKernels() {
  static const Q6KRepackedKernels* best = FirstRunnable(AllQ6KRepackedVariants());
  return best;
}

}  // namespace cpubrrr
