// Q8_0 activations packed once per gemm call for the lane tiles (AVX-512 and AVX2): each
// token's quants back to back, and per block the term that takes the weights' unsigned
// offset back off and d_x.
#ifndef CPUBRRR_KERNELS_TILES_Q8_0_TOKEN_PACK_H_
#define CPUBRRR_KERNELS_TILES_Q8_0_TOKEN_PACK_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "quant/q8_0.h"

namespace cpubrrr {

// One token as a lane tile reads it: q[32 b + i] the quants of block b, seed[b] =
// -offset * (sum of block b's quants), d[b] its d_x as a float; q, seed and d 64-byte aligned.
struct Q8_0TokenView {
  const int8_t* q;
  const int32_t* seed;
  const float* d;
};

// Packs n_tokens tokens (x_stride blocks apart, n_blocks each) into this thread's buffer for
// weights that enter the dot plus `offset`; token t's view is views[t], valid until the
// thread's next call.
void PackQ8_0Tokens(const BlockQ8_0* x, size_t x_stride, size_t n_tokens, size_t n_blocks, int32_t offset,
                    std::vector<Q8_0TokenView>& views);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_TILES_Q8_0_TOKEN_PACK_H_
