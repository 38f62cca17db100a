// The one-line account of which kernels a loaded model runs on this CPU, and why.
#ifndef CPUBRRR_MODELS_COMMON_KERNEL_REPORT_H_
#define CPUBRRR_MODELS_COMMON_KERNEL_REPORT_H_

#include <string>

#include "models/common/moe_weights.h"

namespace cpubrrr {

// Returns, for each weight type of w's matrix products, the variant that runs and how
// many bytes of the file it covers (a repacked copy's own size is ModelInfo::derived_bytes),
// then the CPU features the choice was made on (and CPUBRRR_CPU_MASK
// when set): "f32 dot_rows 2 KiB, q8_0 avx2 13.1 MiB, mxfp4 avx2_repacked 51 KiB; CPU: avx2
// (CPUBRRR_CPU_MASK=1)"; and, when an AVX-512 gemm of MXFP4, Q4_K or Q6_K runs, from how
// many tokens it takes the lane tile and why (kernels/common/few_tokens.h).
std::string KernelReport(const ModelWeights& w);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_KERNEL_REPORT_H_
