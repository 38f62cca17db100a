// Residual updates on f32 vectors: add and scale-add in place.
#ifndef CPUBRRR_KERNELS_F32_VEC_H_
#define CPUBRRR_KERNELS_F32_VEC_H_

#include <cstddef>

namespace cpubrrr {

// Adds x[i] to y[i] for i < n. Precondition: y and x do not partially overlap.
void AddToRef(float* y, const float* x, size_t n);

// Adds a * x[i] to y[i] for i < n (one rounding for the product, one for the sum).
// Precondition: y and x do not partially overlap.
void ScaleAddToRef(float* y, float a, const float* x, size_t n);

// Computes AddToRef with Highway (run-time dispatch); bit-identical to it.
void AddTo(float* y, const float* x, size_t n);

// Computes ScaleAddToRef with Highway (run-time dispatch; fused multiply-add).
void ScaleAddTo(float* y, float a, const float* x, size_t n);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_VEC_H_
