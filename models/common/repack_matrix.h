// One weight matrix's copy in the layout the repacked kernels read fastest (its format's
// RepackedLayout, kernels/common/weight_format.h): which types this CPU repacks, its size,
// the copy, and a fingerprint of the layouts.
#ifndef CPUBRRR_MODELS_COMMON_REPACK_MATRIX_H_
#define CPUBRRR_MODELS_COMMON_REPACK_MATRIX_H_

#include <cstdint>

#include "models/common/weight_matrix.h"

namespace cpubrrr {

// Returns whether matrices of `type` are repacked on this CPU: the type's format has a
// repacked layout and a repacked variant of it runs here.
bool RepackedHere(GgmlType type);

// Returns the bytes of one matrix (expert) of `m` in its repacked layout.
// Precondition (also of RepackMatrix): RepackedHere(m.type).
uint64_t RepackedMatrixBytes(const WeightMatrix& m);

// Writes matrix `e` of `m` in its repacked layout to `out` (RepackedMatrixBytes(m) bytes).
void RepackMatrix(const WeightMatrix& m, int64_t e, uint8_t* out);

// Returns a hash of what the repacks write for fixed inputs of every format RepackedHere: a
// change to any layout, or to which types are repacked, changes it, so copies an older
// build (or a run repacking other types) kept on disk are not taken for this one's.
uint64_t RepackedLayoutFingerprint();

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_REPACK_MATRIX_H_
