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

// Compute the functions above with Highway (run-time dispatch). Dots accumulate in
// float vector lanes; Axpy uses fused multiply-add in the reference's order over j.
void DotRows(const float* q, const float* k, size_t k_stride, size_t n_rows,
             size_t dim, float scale, float* out);
void DotRowsF16(const float* q, const uint16_t* k, size_t k_stride, size_t n_rows,
                size_t dim, float scale, float* out);
void AxpyRows(const float* w, const float* v, size_t v_stride, size_t n_rows,
              size_t dim, float* out);
void AxpyRowsF16(const float* w, const uint16_t* v, size_t v_stride, size_t n_rows,
                 size_t dim, float* out);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_F32_ATTENTION_H_
