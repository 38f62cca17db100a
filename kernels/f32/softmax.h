// Numerically stable in-place softmax over one f32 vector, optionally with a sink logit.
#ifndef CPUBRRR_KERNELS_F32_SOFTMAX_H_
#define CPUBRRR_KERNELS_F32_SOFTMAX_H_

#include <cstddef>

namespace cpubrrr {

// Replaces x[0..n) by exp(x[i] - m) / sum_j exp(x[j] - m) with m = max_j x[j]. Sums
// the exponentials in double, then multiplies by the float reciprocal (as ggml does).
// Preconditions: n >= 1, every x[i] finite or -inf, at least one finite.
void SoftmaxRef(float* x, size_t n);

// Like SoftmaxRef with one extra logit `sink` that enters the maximum and the
// denominator but has no output (gpt-oss attention sinks):
// x[i] = exp(x[i] - m) / (exp(sink - m) + sum_j exp(x[j] - m)), m = max(sink, max_j x[j]).
// Preconditions: as SoftmaxRef, and `sink` finite.
void SoftmaxWithSinkRef(float* x, size_t n, float sink);

// Computes SoftmaxRef with Highway (run-time dispatch): vector exp (1 ulp), float
// partial sums flushed into a double every few hundred elements.
void Softmax(float* x, size_t n);

// Computes SoftmaxWithSinkRef with Highway (run-time dispatch).
void SoftmaxWithSink(float* x, size_t n, float sink);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_SOFTMAX_H_
