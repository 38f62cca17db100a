// Matrix products of bound weights with batches of activations, over a range of rows.
#ifndef CPUBRRR_MODELS_COMMON_LINEAR_H_
#define CPUBRRR_MODELS_COMMON_LINEAR_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "models/common/activation_batch.h"
#include "models/common/weight_matrix.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

// One worker's buffers for MatMulRows: gathered activations and results of scattered
// token lists. They grow to the largest batch seen, then stop allocating.
struct MatMulScratch {
  std::vector<uint8_t> x;
  std::vector<float> y;
};

// For i < in_rows.size() and r in `rows`:
//   y[out_rows[i] * y_stride + r] = dot(row r of matrix `mat` of `w`, activation in_rows[i])
// with the activation in w's pair format (ActFormatFor), already quantized by the caller
// (f32 weights take the unquantized f32 activations). One activation runs the format's
// gemv, several its gemm; a result depends only on its row, its activation and whether
// it ran alone (gemv) or with others (gemm: on AVX-512 another rounding order, within the
// kernels' error bound), never on `rows` (the thread split).
// Precondition: in_rows and out_rows have the same length; x.cols() == w.cols.
void MatMulRows(const WeightMatrix& w, int64_t mat, Range rows, const ActivationBatch& x,
                absl::Span<const int32_t> in_rows, absl::Span<const int32_t> out_rows, float* y,
                size_t y_stride, MatMulScratch& scratch);

// `n` activation rows of one format, row_bytes apart, ready for MatMulGathered.
struct GatheredRows {
  const uint8_t* data;
  size_t row_bytes;
  size_t n;
  ActFormat format;
};

// Returns rows in_rows of x in `format`, in place when consecutive, else copied into
// scratch.x (valid until the scratch's next gather).
GatheredRows GatherRows(const ActivationBatch& x, ActFormat format,
                        absl::Span<const int32_t> in_rows, MatMulScratch& scratch);

// MatMulRows on rows already gathered (for several matrices that share one activation
// list, such as an expert's gate and up). Precondition: x.format == ActFormatFor(w.type).
void MatMulGathered(const WeightMatrix& w, int64_t mat, Range rows, const GatheredRows& x,
                    absl::Span<const int32_t> out_rows, float* y, size_t y_stride,
                    MatMulScratch& scratch);

// Returns whether a product of `w` with n_tokens activations reads w's repacked copy
// (where it has one) rather than the file's rows: always, but for the gemv of a format
// whose copy serves the gemm only (RepackedLayout::serves_gemm_only).
bool ReadsRepackedCopy(const WeightMatrix& w, size_t n_tokens);

// Returns the name of the kernel variant products with `w` run on this CPU ("avx2",
// "avx512_vnni", ...), with "_repacked" when w has a repacked copy (Q8_0: its gemm's).
std::string KernelVariant(const WeightMatrix& w);

// Rows per tile of the AVX-512 gemms (16 float lanes): cuts on multiples of it keep tiles
// whole.
inline constexpr size_t kRowTile = 16;

// Returns this worker's share of n rows that every matrix of `matrices` is cut along, on
// multiples of kRowTile, of each matrix's RowGranule (so products on a repacked copy take
// its fast path) and of `align`.
Range RowShare(const WorkerContext& ctx, size_t n, std::initializer_list<const WeightMatrix*> matrices,
               size_t align = 1);

// Returns part `part` of n rows cut into `parts` as RowShare cuts them among workers.
Range RowPart(size_t n, int part, int parts, std::initializer_list<const WeightMatrix*> matrices,
              size_t align = 1);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_LINEAR_H_
