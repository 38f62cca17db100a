// Where the AVX-512 gemms of MXFP4, Q4_K and Q6_K switch from their few-token tiles (each
// weight decoded once for all tokens, each token the gemv's bits) to the lane tile (the
// oracle's bits): a choice per CPU class, made once at run time.
#ifndef CPUBRRR_KERNELS_COMMON_FEW_TOKENS_H_
#define CPUBRRR_KERNELS_COMMON_FEW_TOKENS_H_

#include <cstddef>
#include <string>

namespace cpubrrr {

// The most tokens the few-token tiles are compiled for.
inline constexpr size_t kAvx512FewTokensMax = 4;

struct LaneTileChoice {
  size_t from;      // the lane tile runs from this many tokens on (1 to kAvx512FewTokensMax + 1)
  std::string why;  // for the load line
};

// The choice for this CPU: CPUBRRR_LANE_TILE_FROM when it holds 1 to 5; else 5 on Intel
// (there a four-token few-token tile reads cold weights faster than the lane tile, whose
// panel decode and tile do not overlap the memory reads at four tokens) and 4 elsewhere
// (on Zen 5 the lane tile read faster at four). Measurements in docs/KERNELS.md.
const LaneTileChoice& Avx512LaneTileChoice();

inline size_t Avx512LaneTileFrom() { return Avx512LaneTileChoice().from; }

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_FEW_TOKENS_H_
