// The E2M1 lookup of the AVX-512 MXFP4 kernels: each code's doubled value plus 128.
#ifndef CPUBRRR_KERNELS_MXFP4_CODE_PLUS128_H_
#define CPUBRRR_KERNELS_MXFP4_CODE_PLUS128_H_

#include <cstdint>

namespace cpubrrr {

// vpdpbusd multiplies unsigned by signed bytes, so the lookup yields each doubled E2M1
// value plus 128 (116..140), repeated for the four 128-bit lanes of vpshufb; the kernels
// remove the 128 with -128 times the activation sums.
alignas(64) inline constexpr uint8_t kMxfp4CodePlus128[64] = {
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116,
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116,
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116,
    128, 129, 130, 131, 132, 134, 136, 140, 128, 127, 126, 125, 124, 122, 120, 116};

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_MXFP4_CODE_PLUS128_H_
