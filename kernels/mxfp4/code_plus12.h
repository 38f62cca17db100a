// The E2M1 lookup of the AVX2 MXFP4 kernels on the repacked layout and of the AVX2 lane
// tile: each code's doubled value plus 12.
#ifndef CPUBRRR_KERNELS_MXFP4_CODE_PLUS12_H_
#define CPUBRRR_KERNELS_MXFP4_CODE_PLUS12_H_

#include <cstdint>

namespace cpubrrr {

// vpmaddubsw multiplies unsigned by signed bytes, so the lookup gives each code's doubled
// E2M1 value plus 12 (0..24), repeated for both 128-bit lanes of vpshufb; the kernels take
// 12 times the activation sums back off.
inline constexpr int kMxfp4CodeOffset = 12;
alignas(32) inline constexpr uint8_t kMxfp4CodePlus12[32] = {
    12, 13, 14, 15, 16, 18, 20, 24, 12, 11, 10, 9, 8, 6, 4, 0,
    12, 13, 14, 15, 16, 18, 20, 24, 12, 11, 10, 9, 8, 6, 4, 0};

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_MXFP4_CODE_PLUS12_H_
