// One weight matrix's copy in the layout the repacked kernels read fastest
// (kernels/<type>/<type>_repacked.h): which types this CPU repacks, its size, the copy, and
// a fingerprint of the layouts.
#ifndef CPUBRRR_MODELS_COMMON_REPACK_MATRIX_H_
#define CPUBRRR_MODELS_COMMON_REPACK_MATRIX_H_

#include <cstdint>

#include "models/common/weight_matrix.h"

namespace cpubrrr {

// Returns whether matrices of `type` are repacked on this CPU: the type has a repacked
// layout (MXFP4, Q8_0, Q4_K, Q6_K) and a repacked variant of it runs here.
bool RepackedHere(GgmlType type);

// Returns whether a copy of `type` serves only the gemm of several tokens, the gemv of one
// token reading the file's rows (Q8_0: its repacked gemv computes 3x faster but reads cold
// memory 0.7-0.9x as fast; research log, 2026-12-05 session 27). The file's pages of such
// a matrix stay in use, and its experts are not copied.
bool CopyServesGemmOnly(GgmlType type);

// Returns the bytes of one matrix (expert) of `m` in its repacked layout.
uint64_t RepackedMatrixBytes(const WeightMatrix& m);

// Writes matrix `e` of `m` in its repacked layout to `out` (RepackedMatrixBytes(m) bytes).
void RepackMatrix(const WeightMatrix& m, int64_t e, uint8_t* out);

// Returns a hash of what the repacks write for fixed inputs of every type RepackedHere: a
// change to any layout, or to which types are repacked, changes it, so copies an older
// build (or a run repacking other types) kept on disk are not taken for this one's.
uint64_t RepackedLayoutFingerprint();

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_REPACK_MATRIX_H_
