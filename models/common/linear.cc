// Dispatches each weight type to the best gemv / gemm of this CPU (kernels/*), and MXFP4,
// Q8_0, Q4_K and Q6_K matrices with a repacked copy to the repacked kernels.
#include "models/common/linear.h"

#include <cstring>

#include "kernels/bf16/bf16.h"
#include "kernels/f16/f16.h"
#include "kernels/f32/attention.h"
#include "kernels/mxfp4/mxfp4.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "kernels/q4_k/q4_k.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "kernels/q6_k/q6_k.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "kernels/q8_0/q8_0.h"
#include "kernels/q8_0/q8_0_repacked.h"
#include "models/common/repack_matrix.h"

namespace cpubrrr {
namespace {

// Returns whether v[i] == v[0] + i for every i.
bool Consecutive(absl::Span<const int32_t> v) {
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i] != v[0] + static_cast<int32_t>(i)) return false;
  }
  return true;
}

// Runs the gemv (n == 1) or gemm of `kernels` on blocks of types W and X.
template <typename W, typename X, typename K>
void Run(const K& kernels, const uint8_t* w, size_t row_bytes, size_t rows, size_t n_blocks,
         const uint8_t* x, size_t x_bytes, size_t n, float* y, size_t y_stride) {
  const W* wb = reinterpret_cast<const W*>(w);
  const X* xb = reinterpret_cast<const X*>(x);
  if (n == 1) {
    kernels.gemv(wb, row_bytes / sizeof(W), rows, xb, n_blocks, y);
  } else {
    kernels.gemm(wb, row_bytes / sizeof(W), rows, xb, x_bytes / sizeof(X), n, n_blocks, y,
                 y_stride);
  }
}

// Runs a repacked variant's gemv (x.n == 1) or gemm on rows `rows` of the matrix of `shape`
// at `packed`, against activations of block type X, when they start on a group of the
// layout and end on one or at the matrix end; returns false otherwise.
template <typename X, typename Shape, typename Variant>
bool RunRepacked(const Variant& k, const uint8_t* packed, const Shape& shape, Range rows,
                 const GatheredRows& x, float* y, size_t y_stride) {
  constexpr size_t kRows = Shape::kGroupRows;
  if (rows.begin % kRows != 0 || (rows.end % kRows != 0 && rows.end != shape.rows)) return false;
  const size_t first = rows.begin / kRows, groups = (rows.end + kRows - 1) / kRows - first;
  const X* xb = reinterpret_cast<const X*>(x.data);
  if (x.n == 1) {
    k.gemv(packed, shape, first, groups, xb, y);
  } else {
    k.gemm(packed, shape, first, groups, xb, x.row_bytes / sizeof(X), x.n, y, y_stride);
  }
  return true;
}

// Runs this CPU's repacked kernels of w's type (MXFP4, Q8_0, Q4_K or Q6_K; a copy exists
// only where they run: RepackedHere) on rows `rows` of matrix `mat` of w when they start on
// a group of the repacked layout and end on one or at the matrix end; returns false
// otherwise (the GGUF rows then give the same bits).
bool RepackedProduct(const WeightMatrix& w, int64_t mat, Range rows, const GatheredRows& x,
                     float* y, size_t y_stride) {
  const size_t n_rows = static_cast<size_t>(w.rows), cols = static_cast<size_t>(w.cols);
  const uint8_t* packed = w.repacked + static_cast<size_t>(mat) * w.repacked_bytes;
  switch (w.type) {
    case GgmlType::kMXFP4:
      return RunRepacked<BlockQ8_0>(*BestMxfp4RepackedKernels(), packed,
                                    Mxfp4RepackedShape{n_rows, cols / kMxfp4BlockSize}, rows, x, y, y_stride);
    case GgmlType::kQ8_0:
      return RunRepacked<BlockQ8_0>(*BestQ8_0RepackedKernels(), packed,
                                    Q8_0RepackedShape{n_rows, cols / kQ8_0BlockSize}, rows, x, y, y_stride);
    case GgmlType::kQ4_K:
      return RunRepacked<BlockQ8K>(*BestQ4KRepackedKernels(), packed,
                                   Q4KRepackedShape{n_rows, cols / kQ4KBlockSize}, rows, x, y, y_stride);
    case GgmlType::kQ6_K:
      return RunRepacked<BlockQ8K>(*BestQ6KRepackedKernels(), packed,
                                   Q6KRepackedShape{n_rows, cols / kQ6KBlockSize}, rows, x, y, y_stride);
    default:
      return false;
  }
}

// Writes y[t * y_stride + r - rows.begin] = dot(row r of matrix `mat` of w, activation t)
// for r in `rows`, t < x.n.
void Product(const WeightMatrix& w, int64_t mat, Range rows, const GatheredRows& x, float* y,
             size_t y_stride) {
  static const Mxfp4Kernels& mxfp4 = BestMxfp4Kernels();
  static const Q8_0Kernels& q8_0 = BestQ8_0Kernels();
  static const Q4KKernels& q4_k = BestQ4KKernels();
  static const Q6KKernels& q6_k = BestQ6KKernels();
  static const Bf16Kernels& bf16 = BestBf16Kernels();
  static const F16Kernels& f16 = BestF16Kernels();
  if (ReadsRepackedCopy(w, x.n) && RepackedProduct(w, mat, rows, x, y, y_stride)) return;
  const uint8_t* wr = w.Row(mat, static_cast<int64_t>(rows.begin));
  const size_t n_rows = rows.size(), cols = w.cols, n = x.n;
  const size_t row_bytes = w.row_bytes, x_bytes = x.row_bytes;
  switch (w.type) {
    case GgmlType::kMXFP4:
      return Run<BlockMxfp4, BlockQ8_0>(mxfp4, wr, row_bytes, n_rows, cols / 32, x.data, x_bytes, n, y, y_stride);
    case GgmlType::kQ8_0:
      return Run<BlockQ8_0, BlockQ8_0>(q8_0, wr, row_bytes, n_rows, cols / 32, x.data, x_bytes, n, y, y_stride);
    case GgmlType::kQ4_K:
      return Run<BlockQ4K, BlockQ8K>(q4_k, wr, row_bytes, n_rows, cols / 256, x.data, x_bytes, n, y, y_stride);
    case GgmlType::kQ6_K:
      return Run<BlockQ6K, BlockQ8K>(q6_k, wr, row_bytes, n_rows, cols / 256, x.data, x_bytes, n, y, y_stride);
    case GgmlType::kBF16:
      return Run<uint16_t, float>(bf16, wr, row_bytes, n_rows, cols, x.data, x_bytes, n, y, y_stride);
    case GgmlType::kF16:
      return Run<uint16_t, float>(f16, wr, row_bytes, n_rows, cols, x.data, x_bytes, n, y, y_stride);
    default:  // f32: one DotRows per activation (scale 1 is exact)
      for (size_t t = 0; t < n; ++t) {
        DotRows(reinterpret_cast<const float*>(x.data + t * x_bytes), reinterpret_cast<const float*>(wr),
                row_bytes / sizeof(float), n_rows, cols, 1.0f, y + t * y_stride);
      }
  }
}

}  // namespace

GatheredRows GatherRows(const ActivationBatch& x, ActFormat format,
                        absl::Span<const int32_t> in_rows, MatMulScratch& scratch) {
  const size_t x_bytes = x.RowBytes(format);
  if (in_rows.empty() || Consecutive(in_rows)) {
    return {in_rows.empty() ? nullptr : x.Data(in_rows[0], format), x_bytes, in_rows.size(), format};
  }
  // Copy the activations so the gemm sees them x_bytes apart.
  if (scratch.x.size() < in_rows.size() * x_bytes) scratch.x.resize(in_rows.size() * x_bytes);
  for (size_t i = 0; i < in_rows.size(); ++i) {
    std::memcpy(scratch.x.data() + i * x_bytes, x.Data(in_rows[i], format), x_bytes);
  }
  return {scratch.x.data(), x_bytes, in_rows.size(), format};
}

void MatMulGathered(const WeightMatrix& w, int64_t mat, Range rows, const GatheredRows& x,
                    absl::Span<const int32_t> out_rows, float* y, size_t y_stride,
                    MatMulScratch& scratch) {
  const size_t n = x.n;
  if (n == 0 || rows.size() == 0) return;
  if (Consecutive(out_rows)) {
    Product(w, mat, rows, x, y + out_rows[0] * y_stride + rows.begin, y_stride);
    return;
  }
  // Scattered outputs: compute into the scratch, then copy each token's results out.
  if (scratch.y.size() < n * rows.size()) scratch.y.resize(n * rows.size());
  Product(w, mat, rows, x, scratch.y.data(), rows.size());
  for (size_t i = 0; i < n; ++i) {
    std::memcpy(y + out_rows[i] * y_stride + rows.begin, scratch.y.data() + i * rows.size(),
                rows.size() * sizeof(float));
  }
}

bool ReadsRepackedCopy(const WeightMatrix& w, size_t n_tokens) {
  return w.repacked != nullptr && (n_tokens > 1 || !CopyServesGemmOnly(w.type));
}

std::string KernelVariant(const WeightMatrix& w) {
  if (w.repacked != nullptr) {
    switch (w.type) {
      case GgmlType::kMXFP4:
        return std::string(BestMxfp4RepackedKernels()->name) + "_repacked";
      case GgmlType::kQ8_0:  // the gemv reads the file's rows (CopyServesGemmOnly)
        return BestQ8_0Kernels().name + std::string(" (gemm ") + BestQ8_0RepackedKernels()->name + "_repacked)";
      case GgmlType::kQ4_K:
        return std::string(BestQ4KRepackedKernels()->name) + "_repacked";
      default:
        return std::string(BestQ6KRepackedKernels()->name) + "_repacked";
    }
  }
  switch (w.type) {
    case GgmlType::kMXFP4:
      return BestMxfp4Kernels().name;
    case GgmlType::kQ8_0:
      return BestQ8_0Kernels().name;
    case GgmlType::kQ4_K:
      return BestQ4KKernels().name;
    case GgmlType::kQ6_K:
      return BestQ6KKernels().name;
    case GgmlType::kBF16:
      return BestBf16Kernels().name;
    case GgmlType::kF16:
      return BestF16Kernels().name;
    default:
      return "dot_rows";  // kernels/f32
  }
}

void MatMulRows(const WeightMatrix& w, int64_t mat, Range rows, const ActivationBatch& x,
                absl::Span<const int32_t> in_rows, absl::Span<const int32_t> out_rows, float* y,
                size_t y_stride, MatMulScratch& scratch) {
  if (in_rows.empty() || rows.size() == 0) return;
  MatMulGathered(w, mat, rows, GatherRows(x, ActFormatFor(w.type), in_rows, scratch), out_rows, y,
                 y_stride, scratch);
}

}  // namespace cpubrrr
