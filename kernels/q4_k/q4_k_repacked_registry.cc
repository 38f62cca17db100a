// The variants that read the repacked Q4_K layout, in priority order, and the pick for
// this CPU.
#include "kernels/q4_k/q4_k_repacked.h"

namespace cpubrrr {
namespace {

#if defined(__x86_64__)
constexpr Q4KRepackedKernels kVariants[] = {
    {"avx512_vnni", kCpuAvx512 | kCpuAvx512Vnni, Q4KRepackedGemvAvx512, Q4KRepackedGemmAvx512, "avx512_vnni"},
    {"avx_vnni", kCpuAvx2 | kCpuAvxVnni, Q4KRepackedGemvAvxVnni, Q4KRepackedGemmAvxVnni, "avx_vnni"},
    {"avx2", kCpuAvx2, Q4KRepackedGemvAvx2, Q4KRepackedGemmAvx2, "avx2"},
};
#endif

}  // namespace

std::span<const Q4KRepackedKernels> AllQ4KRepackedVariants() {
#if defined(__x86_64__)
  return kVariants;
#else
  return {};
#endif
}

const Q4KRepackedKernels* BestQ4KRepackedKernels() {
  static const Q4KRepackedKernels* best = FirstRunnable(AllQ4KRepackedVariants());
  return best;
}

}  // namespace cpubrrr
