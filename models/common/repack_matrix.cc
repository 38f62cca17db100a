// The repacks of MXFP4, Q8_0, Q4_K and Q6_K matrices, and the fingerprint of their layouts.
#include "models/common/repack_matrix.h"

#include <vector>

#include "kernels/mxfp4/mxfp4_repacked.h"
#include "models/common/fnv1a.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "kernels/q8_0/q8_0_repacked.h"
#include "quant/mxfp4.h"
#include "quant/q4_k.h"
#include "quant/q6_k.h"
#include "quant/q8_0.h"

namespace cpubrrr {

bool RepackedHere(GgmlType type) {
  switch (type) {
    case GgmlType::kMXFP4:
      return BestMxfp4RepackedKernels() != nullptr;
    case GgmlType::kQ8_0:
      return BestQ8_0RepackedKernels() != nullptr;
    case GgmlType::kQ4_K:
      return BestQ4KRepackedKernels() != nullptr;
    case GgmlType::kQ6_K:
      return BestQ6KRepackedKernels() != nullptr;
    default:
      return false;
  }
}

bool CopyServesGemmOnly(GgmlType type) { return type == GgmlType::kQ8_0; }

uint64_t RepackedMatrixBytes(const WeightMatrix& m) {
  const size_t rows = static_cast<size_t>(m.rows), cols = static_cast<size_t>(m.cols);
  switch (m.type) {
    case GgmlType::kMXFP4:
      return Mxfp4RepackedShape{rows, cols / kMxfp4BlockSize}.Bytes();
    case GgmlType::kQ8_0:
      return Q8_0RepackedShape{rows, cols / kQ8_0BlockSize}.Bytes();
    case GgmlType::kQ4_K:
      return Q4KRepackedShape{rows, cols / kQ4KBlockSize}.Bytes();
    default:
      return Q6KRepackedShape{rows, cols / kQ6KBlockSize}.Bytes();
  }
}

void RepackMatrix(const WeightMatrix& m, int64_t e, uint8_t* out) {
  const size_t rows = static_cast<size_t>(m.rows), cols = static_cast<size_t>(m.cols);
  if (m.type == GgmlType::kMXFP4) {
    RepackMxfp4(reinterpret_cast<const BlockMxfp4*>(m.Row(e, 0)), m.row_bytes / sizeof(BlockMxfp4),
                rows, cols / kMxfp4BlockSize, out);
  } else if (m.type == GgmlType::kQ8_0) {
    RepackQ8_0(reinterpret_cast<const BlockQ8_0*>(m.Row(e, 0)), m.row_bytes / sizeof(BlockQ8_0), rows,
               cols / kQ8_0BlockSize, out);
  } else if (m.type == GgmlType::kQ4_K) {
    RepackQ4K(reinterpret_cast<const BlockQ4K*>(m.Row(e, 0)), m.row_bytes / sizeof(BlockQ4K), rows,
              cols / kQ4KBlockSize, out);
  } else {
    RepackQ6K(reinterpret_cast<const BlockQ6K*>(m.Row(e, 0)), m.row_bytes / sizeof(BlockQ6K), rows,
              cols / kQ6KBlockSize, out);
  }
}

uint64_t RepackedLayoutFingerprint() {
  uint64_t hash = kFnv1aStart;
  // 9 rows of 2 superblocks (a partial group of every layout), every byte distinct in its
  // position.
  constexpr int64_t kRows = 9, kCols = 512;
  for (GgmlType type : {GgmlType::kMXFP4, GgmlType::kQ8_0, GgmlType::kQ4_K, GgmlType::kQ6_K}) {
    if (!RepackedHere(type)) continue;
    WeightMatrix m;
    m.type = type;
    m.rows = kRows;
    m.cols = kCols;
    m.row_bytes = type == GgmlType::kMXFP4 ? kCols / kMxfp4BlockSize * sizeof(BlockMxfp4)
                  : type == GgmlType::kQ8_0 ? kCols / kQ8_0BlockSize * sizeof(BlockQ8_0)
                  : type == GgmlType::kQ4_K ? kCols / kQ4KBlockSize * sizeof(BlockQ4K)
                                            : kCols / kQ6KBlockSize * sizeof(BlockQ6K);
    std::vector<uint8_t> in(m.bytes());
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 167 + i / 251);
    m.data = in.data();
    std::vector<uint8_t> out(RepackedMatrixBytes(m));
    RepackMatrix(m, 0, out.data());
    hash = Fnv1a(out.data(), out.size(), hash);
  }
  return hash;
}

}  // namespace cpubrrr
