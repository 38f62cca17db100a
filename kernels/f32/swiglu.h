// Gated activations of the expert FFNs: gpt-oss's clamped SwiGLU and plain SwiGLU.
#ifndef CPUBRRR_KERNELS_F32_SWIGLU_H_
#define CPUBRRR_KERNELS_F32_SWIGLU_H_

#include <cstddef>

namespace cpubrrr {

// Writes h[i] = g' / (1 + exp(-alpha g')) * (u' + 1) with g' = min(g[i], limit) and
// u' = clamp(u[i], -limit, limit); gpt-oss uses alpha = 1.702, limit = 7 (ggml's
// swiglu_oai). Preconditions: limit > 0; h may equal g or u, no other overlap.
void SwigluOaiRef(const float* g, const float* u, size_t n, float alpha, float limit,
                  float* h);

// Writes h[i] = silu(g[i]) * u[i], silu(g) = g / (1 + exp(-g)) (Qwen3 experts).
// Preconditions: h may equal g or u, no other overlap.
void SwigluRef(const float* g, const float* u, size_t n, float* h);

// Computes SwigluOaiRef with Highway (run-time dispatch) in ggml's expression with the C
// library's expf (bit-identical to llama.cpp).
void SwigluOai(const float* g, const float* u, size_t n, float alpha, float limit,
               float* h);

// Computes SwigluRef with Highway (run-time dispatch) in the float steps of ggml's
// swiglu on x86 with AVX-512 (runs of 16 through ggml's vector exp, the rest with the C
// library's expf), bit-identical to llama.cpp on CPUs with FMA.
void Swiglu(const float* g, const float* u, size_t n, float* h);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_SWIGLU_H_
