// Repacks through the formats' descriptors (kernels/weight_formats.h), and the fingerprint
// of their layouts.
#include "models/common/repack_matrix.h"

#include <vector>

#include "models/common/fnv1a.h"

namespace cpubrrr {

bool RepackedHere(GgmlType type) {
  const WeightFormat* f = FindWeightFormat(type);
  return f != nullptr && f->repacked.has_value();
}

uint64_t RepackedMatrixBytes(const WeightMatrix& m) {
  const WeightFormat& f = m.format();
  return f.repacked->bytes(static_cast<size_t>(m.rows), static_cast<size_t>(m.cols) / f.block_elems);
}

void RepackMatrix(const WeightMatrix& m, int64_t e, uint8_t* out) {
  const WeightFormat& f = m.format();
  f.repacked->repack(m.Row(e, 0), m.row_bytes, static_cast<size_t>(m.rows),
                     static_cast<size_t>(m.cols) / f.block_elems, out);
}

uint64_t RepackedLayoutFingerprint() {
  uint64_t hash = kFnv1aStart;
  // 9 rows of 512 columns (a partial group of every layout, whole blocks of every format),
  // every byte distinct in its position.
  constexpr int64_t kRows = 9, kCols = 512;
  for (const WeightFormat* f : AllWeightFormats()) {
    if (!f->repacked) continue;
    WeightMatrix m;
    m.type = f->type;
    m.rows = kRows;
    m.cols = kCols;
    m.row_bytes = kCols / f->block_elems * f->block_bytes;
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
