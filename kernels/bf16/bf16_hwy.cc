// Highway bfloat16-weight products (foreach_target + dynamic dispatch).
#include "kernels/bf16/bf16_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/bf16/bf16_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/tiles/half_matvec-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {

using Half = hwy::bfloat16_t;

void Bf16GemvImpl(const uint16_t* w, size_t row_stride, size_t rows, const float* x, size_t n,
              float* y) {
  half_matvec::Gemv(reinterpret_cast<const Half*>(w), row_stride, rows, x, n, y);
}

void Bf16GemmImpl(const uint16_t* w, size_t row_stride, size_t rows, const float* x,
              size_t x_stride, size_t n_tokens, size_t n, float* y, size_t y_stride) {
  half_matvec::Gemm(reinterpret_cast<const Half*>(w), row_stride, rows, x, x_stride,
                    n_tokens, n, y, y_stride);
}

void Bf16RowToF32Impl(const uint16_t* row, size_t n, float* out) {
  half_matvec::RowToF32(reinterpret_cast<const Half*>(row), n, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {
namespace {

HWY_EXPORT(Bf16GemvImpl);
HWY_EXPORT(Bf16GemmImpl);
HWY_EXPORT(Bf16RowToF32Impl);

void Gemv(const uint16_t* w, size_t row_stride, size_t rows, const float* x, size_t n,
          float* y) {
  HWY_DYNAMIC_DISPATCH(Bf16GemvImpl)(w, row_stride, rows, x, n, y);
}

void Gemm(const uint16_t* w, size_t row_stride, size_t rows, const float* x,
          size_t x_stride, size_t n_tokens, size_t n, float* y, size_t y_stride) {
  HWY_DYNAMIC_DISPATCH(Bf16GemmImpl)(w, row_stride, rows, x, x_stride, n_tokens, n, y, y_stride);
}

void RowToF32(const uint16_t* row, size_t n, float* out) {
  HWY_DYNAMIC_DISPATCH(Bf16RowToF32Impl)(row, n, out);
}

}  // namespace

const Bf16Kernels kBf16KernelsHwy = {"hwy", kCpuNone, Gemv, Gemm, RowToF32};

}  // namespace cpubrrr
#endif  // HWY_ONCE
