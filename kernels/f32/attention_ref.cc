// Scalar attention loops, the definition for the Highway versions.
#include "kernels/f32/attention.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

float ToFloat(float x) { return x; }
float ToFloat(uint16_t h) { return Fp16ToFp32(h); }

template <typename T>
void DotRowsT(const float* q, const T* k, size_t k_stride, size_t n_rows, size_t dim,
              float scale, float* out) {
  for (size_t j = 0; j < n_rows; ++j) {
    const T* row = k + j * k_stride;
    double sum = 0.0;
    for (size_t i = 0; i < dim; ++i) sum += static_cast<double>(q[i]) * ToFloat(row[i]);
    out[j] = scale * static_cast<float>(sum);
  }
}

template <typename T>
void AxpyRowsT(const float* w, const T* v, size_t v_stride, size_t n_rows, size_t dim,
               float* out) {
  for (size_t j = 0; j < n_rows; ++j) {
    const T* row = v + j * v_stride;
    for (size_t i = 0; i < dim; ++i) out[i] += w[j] * ToFloat(row[i]);
  }
}

}  // namespace

void DotRowsRef(const float* q, const float* k, size_t k_stride, size_t n_rows,
                size_t dim, float scale, float* out) {
  DotRowsT(q, k, k_stride, n_rows, dim, scale, out);
}

void DotRowsF16Ref(const float* q, const uint16_t* k, size_t k_stride, size_t n_rows,
                   size_t dim, float scale, float* out) {
  DotRowsT(q, k, k_stride, n_rows, dim, scale, out);
}

void AxpyRowsRef(const float* w, const float* v, size_t v_stride, size_t n_rows,
                 size_t dim, float* out) {
  AxpyRowsT(w, v, v_stride, n_rows, dim, out);
}

void AxpyRowsF16Ref(const float* w, const uint16_t* v, size_t v_stride, size_t n_rows,
                    size_t dim, float* out) {
  AxpyRowsT(w, v, v_stride, n_rows, dim, out);
}

}  // namespace cpubrrr
