// RMSNorm over one f32 vector: scalar reference and Highway version.
#ifndef CPUBRRR_KERNELS_F32_RMSNORM_H_
#define CPUBRRR_KERNELS_F32_RMSNORM_H_

#include <cstddef>

namespace cpubrrr {

// Writes y[i] = x[i] * scale * w[i] with scale = 1 / sqrt(mean(x^2) + eps), or
// y[i] = x[i] * scale when `w` is null. Sums the squares in double (as ggml does).
// Preconditions: n >= 1, eps >= 0; y may equal x (in place) but not overlap it otherwise.
void RmsNormRef(const float* x, const float* w, size_t n, float eps, float* y);

// Computes the same as RmsNormRef with Highway (run-time dispatch). The sum of squares
// is accumulated in float vector lanes, so `scale` may differ from the reference by the
// rounding of that sum.
void RmsNorm(const float* x, const float* w, size_t n, float eps, float* y);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_RMSNORM_H_
