// Runs products of bound weights on the kernels their format's descriptor names for this
// CPU (kernels/weight_formats.h): the repacked copy's where the matrix has one.
#include "models/common/linear.h"

#include <cstring>
#include <numeric>

namespace cpubrrr {
namespace {

// Returns whether v[i] == v[0] + i for every i.
bool Consecutive(absl::Span<const int32_t> v) {
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i] != v[0] + static_cast<int32_t>(i)) return false;
  }
  return true;
}

// Runs the repacked kernels of w's format on rows `rows` of matrix `mat` of w's copy when
// they start on a group of the layout and end on one or at the matrix end (RowShare cuts
// them so); returns false otherwise (the file's rows then give the same bits).
bool RepackedProduct(const WeightMatrix& w, int64_t mat, Range rows, const GatheredRows& x,
                     float* y, size_t y_stride) {
  const RepackedLayout& layout = *w.layout();
  const size_t n_rows = static_cast<size_t>(w.rows), group = layout.group_rows;
  if (rows.begin % group != 0 || (rows.end % group != 0 && rows.end != n_rows)) return false;
  const size_t first = rows.begin / group, groups = (rows.end + group - 1) / group - first;
  const size_t n_blocks = static_cast<size_t>(w.cols) / w.format().block_elems;
  const uint8_t* packed = w.repacked + static_cast<size_t>(mat) * w.repacked_bytes;
  if (x.n == 1) {
    layout.gemv(layout.table, packed, n_rows, n_blocks, first, groups, x.data, y);
  } else {
    layout.gemm(layout.table, packed, n_rows, n_blocks, first, groups, x.data, x.row_bytes, x.n, y, y_stride);
  }
  return true;
}

// Writes y[t * y_stride + r - rows.begin] = dot(row r of matrix `mat` of w, activation t)
// for r in `rows`, t < x.n.
void Product(const WeightMatrix& w, int64_t mat, Range rows, const GatheredRows& x, float* y,
             size_t y_stride) {
  if (ReadsRepackedCopy(w, x.n) && RepackedProduct(w, mat, rows, x, y, y_stride)) return;
  const WeightFormat& f = w.format();
  const uint8_t* wr = w.Row(mat, static_cast<int64_t>(rows.begin));
  const size_t n_blocks = static_cast<size_t>(w.cols) / f.block_elems;
  if (x.n == 1) {
    f.product.gemv(f.product.table, wr, w.row_bytes, rows.size(), x.data, n_blocks, y);
  } else {
    f.product.gemm(f.product.table, wr, w.row_bytes, rows.size(), x.data, x.row_bytes, x.n, n_blocks, y,
                   y_stride);
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
  return w.repacked != nullptr && (n_tokens > 1 || !w.layout()->serves_gemm_only);
}

std::string KernelVariant(const WeightMatrix& w) {
  const WeightFormat& f = w.format();
  if (w.repacked == nullptr) return f.product.variant;
  const RepackedLayout& layout = *w.layout();
  if (layout.serves_gemm_only) return f.product.variant + std::string(" (gemm ") + layout.variant + "_repacked)";
  return layout.variant + std::string("_repacked");
}

Range RowShare(const WorkerContext& ctx, size_t n, std::initializer_list<const WeightMatrix*> matrices,
               size_t align) {
  return RowPart(n, ctx.index(), ctx.n_workers(), matrices, align);
}

Range RowPart(size_t n, int part, int parts, std::initializer_list<const WeightMatrix*> matrices,
              size_t align) {
  size_t granule = std::lcm(align, kRowTile);
  for (const WeightMatrix* m : matrices) granule = std::lcm(granule, m->RowGranule());
  return SplitRange(n, part, parts, granule);
}

void MatMulRows(const WeightMatrix& w, int64_t mat, Range rows, const ActivationBatch& x,
                absl::Span<const int32_t> in_rows, absl::Span<const int32_t> out_rows, float* y,
                size_t y_stride, MatMulScratch& scratch) {
  if (in_rows.empty() || rows.size() == 0) return;
  MatMulGathered(w, mat, rows, GatherRows(x, ActFormatFor(w.type), in_rows, scratch), out_rows, y,
                 y_stride, scratch);
}

}  // namespace cpubrrr
