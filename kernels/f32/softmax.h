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

// Computes SoftmaxRef with Highway (run-time dispatch) in the float steps of ggml's
// soft_max on x86 with AVX-512 (llama.cpp's CPU backend), so that its bits match
// llama.cpp's: each whole run of 16 values (from x[0]) through ggml's vector exp
// (about 1.5 ulp) and summed by its 16-lane tree into a double; the remaining values
// with the C library's expf, added one by one; then (SoftmaxWithSink) the sink's expf;
// then a multiply by float(1 / sum). Attention aligns the runs with llama.cpp's cache
// cells by padding with -inf (exp 0). Bit-identical to llama.cpp on CPUs with FMA.
void Softmax(float* x, size_t n);

// Computes SoftmaxWithSinkRef with Highway (run-time dispatch), as Softmax.
void SoftmaxWithSink(float* x, size_t n, float sink);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_SOFTMAX_H_
