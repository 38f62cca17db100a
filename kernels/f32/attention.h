// Attention inner loops over a KV cache: query-key dot products and value accumulation.
#ifndef CPUBRRR_KERNELS_F32_ATTENTION_H_
#define CPUBRRR_KERNELS_F32_ATTENTION_H_

#include <cstddef>
#include <cstdint>

namespace cpubrrr {

// Writes out[j] = scale * dot(q, k + j * k_stride) over `dim` elements for j < n_rows:
// one query against n_rows cached keys (rows k_stride elements apart). Accumulates in
// double. Preconditions: k_stride >= dim; out does not overlap q or k.
void DotRowsRef(const float* q, const float* k, size_t k_stride, size_t n_rows,
                size_t dim, float scale, float* out);

// Like DotRowsRef with keys stored as fp16 bits (an f16 KV cache).
void DotRowsF16Ref(const float* q, const uint16_t* k, size_t k_stride, size_t n_rows,
                   size_t dim, float scale, float* out);

// Adds w[j] * (v + j * v_stride)[i] to out[i] for i < dim, j < n_rows, summing over j
// in order for each i (the softmax-weighted sum of value rows). out is accumulated
// into, not overwritten. Preconditions: v_stride >= dim; out does not overlap w or v.
void AxpyRowsRef(const float* w, const float* v, size_t v_stride, size_t n_rows,
                 size_t dim, float* out);

// Like AxpyRowsRef with values stored as fp16 bits.
void AxpyRowsF16Ref(const float* w, const uint16_t* v, size_t v_stride, size_t n_rows,
                    size_t dim, float* out);

// Compute the functions above with Highway (run-time dispatch). Axpy uses fused
// multiply-add in the reference's order over j. DotRows (f32 keys) computes each dot in
// the float steps of ggml_vec_dot_f32 on x86 AVX-512 (llama.cpp's f32 matmuls for one
// token: the attention q.k and the f32 router), then one multiply by scale, so its bits
// match llama.cpp's on CPUs with FMA; DotRowsF16 accumulates each key in one float vector
// (a fused step per vector of dim) and, on fixed-width targets whose lane count divides
// dim, sums the lanes of a vector's worth of keys together (a fixed tree per key).
void DotRows(const float* q, const float* k, size_t k_stride, size_t n_rows,
             size_t dim, float scale, float* out);
void DotRowsF16(const float* q, const uint16_t* k, size_t k_stride, size_t n_rows,
                size_t dim, float scale, float* out);
void AxpyRows(const float* w, const float* v, size_t v_stride, size_t n_rows,
              size_t dim, float* out);
void AxpyRowsF16(const float* w, const uint16_t* v, size_t v_stride, size_t n_rows,
                 size_t dim, float* out);

// DotRowsF16 and AxpyRowsF16 for n_q queries that share one cache run (the query heads of
// one KV head): query g at q + g * q_stride with its weights at w + g * w_stride and its
// scores / output at out + g * out_stride. Each key or value row is converted from fp16
// once for all n_q, and every result equals the single-query function's bit for bit.
// Precondition: dim <= kMaxGroupDim.
inline constexpr size_t kMaxGroupDim = 256;
void DotRowsF16Group(const float* q, size_t q_stride, size_t n_q, const uint16_t* k,
                     size_t k_stride, size_t n_rows, size_t dim, float scale, float* out,
                     size_t out_stride);
void AxpyRowsF16Group(const float* w, size_t w_stride, size_t n_q, const uint16_t* v,
                      size_t v_stride, size_t n_rows, size_t dim, float* out, size_t out_stride);

// The softmax-weighted sum of value rows in the float steps of llama.cpp's attention
// without flash attention (an f32 V cache stored transposed, each output value one
// ggml_vec_dot_f32 over the cache cells; cells are positions here): value row j, at
// position pos0 + j, goes into lane row (pos0 + j) % 64 of `lanes` (64 x dim floats,
// caller-owned scratch) by one fused multiply-add per value; `touched` (0 before the
// first call for an output) marks the lane rows in use. Call once per run of
// consecutive positions in increasing order, then SumLanes64 writes
// out[i] = the 64 lane rows of column i summed in ggml's lane tree. Bit-identical to
// llama.cpp (CPUs with FMA) when its cache holds at least the positions in use in a
// multiple of 64 cells, as llama.cpp's padding to 256 cells gives.
void AxpyRowsToLanes(const float* w, const float* v, size_t v_stride, size_t n_rows,
                     size_t dim, size_t pos0, float* lanes, uint64_t* touched);
void SumLanes64(const float* lanes, uint64_t touched, size_t dim, float* out);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_ATTENTION_H_
