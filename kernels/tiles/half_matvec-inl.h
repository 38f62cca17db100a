// Highway matrix-vector and matrix-matrix products of bf16 / f16 weight rows with f32
// activations, shared by kernels/bf16 and kernels/f16 (include per target).
#if defined(CPUBRRR_KERNELS_TILES_HALF_MATVEC_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CPUBRRR_KERNELS_TILES_HALF_MATVEC_INL_H_
#undef CPUBRRR_KERNELS_TILES_HALF_MATVEC_INL_H_
#else
#define CPUBRRR_KERNELS_TILES_HALF_MATVEC_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace half_matvec {
namespace hn = hwy::HWY_NAMESPACE;

// Loads Lanes(d) half-precision values (T = hwy::bfloat16_t or hwy::float16_t) at p as
// floats; exact.
template <class D, typename T>
HWY_INLINE hn::Vec<D> LoadWidened(D d, const T* p) {
  const hn::Rebind<T, D> dh;
  return hn::PromoteTo(d, hn::LoadU(dh, p));
}

// Writes out[i] = row[i] as float for i < n.
template <typename T>
void RowToF32(const T* row, size_t n, float* out) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  size_t i = 0;
  for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) hn::StoreU(LoadWidened(d, row + i), d, out + i);
  for (; i < n; ++i) hn::StoreU(LoadWidened(d1, row + i), d1, out + i);
}

// Returns dot(row, x) over n columns. The fixed order (four vector accumulators over
// blocks of 4 vectors, one more vector into the first, lane reduction, then a one-lane
// tail) is shared by Gemv and Gemm so both give identical results per token.
template <typename T>
HWY_INLINE float Dot(const T* row, const float* x, size_t n) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  size_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    a0 = hn::MulAdd(LoadWidened(d, row + i), hn::LoadU(d, x + i), a0);
    a1 = hn::MulAdd(LoadWidened(d, row + i + L), hn::LoadU(d, x + i + L), a1);
    a2 = hn::MulAdd(LoadWidened(d, row + i + 2 * L), hn::LoadU(d, x + i + 2 * L), a2);
    a3 = hn::MulAdd(LoadWidened(d, row + i + 3 * L), hn::LoadU(d, x + i + 3 * L), a3);
  }
  for (; i + L <= n; i += L) a0 = hn::MulAdd(LoadWidened(d, row + i), hn::LoadU(d, x + i), a0);
  auto t = hn::Zero(d1);
  for (; i < n; ++i) t = hn::MulAdd(LoadWidened(d1, row + i), hn::LoadU(d1, x + i), t);
  const auto all = hn::Add(hn::Add(a0, a1), hn::Add(a2, a3));
  return hn::GetLane(hn::SumOfLanes(d, all)) + hn::GetLane(t);
}

// Returns dot(row, x0) and dot(row, x1) in *y0, *y1, reading each weight once, with
// exactly Dot's arithmetic per token.
template <typename T>
HWY_INLINE void Dot2(const T* row, const float* x0, const float* x1, size_t n, float* y0,
                     float* y1) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  auto b0 = hn::Zero(d), b1 = hn::Zero(d), b2 = hn::Zero(d), b3 = hn::Zero(d);
  size_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    const auto w0 = LoadWidened(d, row + i), w1 = LoadWidened(d, row + i + L);
    const auto w2 = LoadWidened(d, row + i + 2 * L), w3 = LoadWidened(d, row + i + 3 * L);
    a0 = hn::MulAdd(w0, hn::LoadU(d, x0 + i), a0);
    b0 = hn::MulAdd(w0, hn::LoadU(d, x1 + i), b0);
    a1 = hn::MulAdd(w1, hn::LoadU(d, x0 + i + L), a1);
    b1 = hn::MulAdd(w1, hn::LoadU(d, x1 + i + L), b1);
    a2 = hn::MulAdd(w2, hn::LoadU(d, x0 + i + 2 * L), a2);
    b2 = hn::MulAdd(w2, hn::LoadU(d, x1 + i + 2 * L), b2);
    a3 = hn::MulAdd(w3, hn::LoadU(d, x0 + i + 3 * L), a3);
    b3 = hn::MulAdd(w3, hn::LoadU(d, x1 + i + 3 * L), b3);
  }
  for (; i + L <= n; i += L) {
    const auto w = LoadWidened(d, row + i);
    a0 = hn::MulAdd(w, hn::LoadU(d, x0 + i), a0);
    b0 = hn::MulAdd(w, hn::LoadU(d, x1 + i), b0);
  }
  auto ta = hn::Zero(d1), tb = hn::Zero(d1);
  for (; i < n; ++i) {
    const auto w = LoadWidened(d1, row + i);
    ta = hn::MulAdd(w, hn::LoadU(d1, x0 + i), ta);
    tb = hn::MulAdd(w, hn::LoadU(d1, x1 + i), tb);
  }
  *y0 = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3)))) +
        hn::GetLane(ta);
  *y1 = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(b0, b1), hn::Add(b2, b3)))) +
        hn::GetLane(tb);
}

// Writes y[r] = dot(w + r * row_stride, x) for r < rows.
template <typename T>
void Gemv(const T* w, size_t row_stride, size_t rows, const float* x, size_t n, float* y) {
  for (size_t r = 0; r < rows; ++r) y[r] = Dot(w + r * row_stride, x, n);
}

// Writes y[t * y_stride + r] = dot(w + r * row_stride, x + t * x_stride) for r < rows,
// t < n_tokens; tokens go in pairs through each row.
template <typename T>
void Gemm(const T* w, size_t row_stride, size_t rows, const float* x, size_t x_stride,
          size_t n_tokens, size_t n, float* y, size_t y_stride) {
  for (size_t r = 0; r < rows; ++r) {
    const T* row = w + r * row_stride;
    size_t t = 0;
    for (; t + 2 <= n_tokens; t += 2) {
      Dot2(row, x + t * x_stride, x + (t + 1) * x_stride, n, y + t * y_stride + r,
           y + (t + 1) * y_stride + r);
    }
    if (t < n_tokens) y[t * y_stride + r] = Dot(row, x + t * x_stride, n);
  }
}

}  // namespace half_matvec
}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#endif  // include guard toggled per target
