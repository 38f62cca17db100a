// NeoX-style rotary embedding (half-split pairs) applied to f32 heads from a cos/sin table.
#ifndef CPUBRRR_KERNELS_F32_ROPE_H_
#define CPUBRRR_KERNELS_F32_ROPE_H_

#include <cstddef>

namespace cpubrrr {

// Rotates, in each of `n_heads` heads starting head_stride floats apart in x, the pairs
// (j, j + head_dim / 2) for j < head_dim / 2:
//   x[j] <- x[j] cos[j] - x[j + h] sin[j],  x[j + h] <- x[j] sin[j] + x[j + h] cos[j].
// cos and sin hold head_dim / 2 values (RopeTable with n_dims = head_dim).
// Preconditions: head_dim even, head_stride >= head_dim, heads do not overlap.
void RopeNeoxRef(float* x, size_t n_heads, size_t head_stride, size_t head_dim,
                 const float* cos, const float* sin);

// Computes RopeNeoxRef with Highway (run-time dispatch; fused multiply-add).
void RopeNeox(float* x, size_t n_heads, size_t head_stride, size_t head_dim,
              const float* cos, const float* sin);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_ROPE_H_
