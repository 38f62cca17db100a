// The value of a kernel table's oracle_gemm_from (Mxfp4Kernels, Q8_0Kernels) for a variant
// whose gemm never gives the oracle's bits: it gives its gemv's per token.
#ifndef CPUBRRR_KERNELS_COMMON_GEMM_BITS_H_
#define CPUBRRR_KERNELS_COMMON_GEMM_BITS_H_

#include <cstddef>
#include <cstdint>

namespace cpubrrr {

inline constexpr size_t kGemmIsGemv = SIZE_MAX;

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_GEMM_BITS_H_
