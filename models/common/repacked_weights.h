// Copies of a model's MXFP4, Q4_K and Q6_K expert and attention matrices, Q8_0 attention
// matrices and Q6_K or Q8_0 output head in the layouts the repacked kernels (AVX2, AVX-512 VNNI) read fastest
// (kernels/<type>/<type>_repacked.h): made in memory at load, or kept in a cache file
// (models/common/repack_cache.h) and mapped.
#ifndef CPUBRRR_MODELS_COMMON_REPACKED_WEIGHTS_H_
#define CPUBRRR_MODELS_COMMON_REPACKED_WEIGHTS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/common/huge_pages.h"
#include "models/common/moe_weights.h"
#include "models/common/repack_cache.h"
#include "runtime/gguf/mapped_file.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

// The memory holding the repacked copies, and its size in bytes (0 with none).
struct RepackedWeights {
  std::unique_ptr<void, HugePagesFree> memory;  // copies made in memory, or
  std::unique_ptr<MappedFile> cache;            // copies mapped from a cache file
  uint64_t bytes = 0;
};

// Returns whether this CPU repacks any type (models/common/repack_matrix.h, RepackedHere).
bool RunsRepackedKernels();

// Returns the matrices of `w` whose type is RepackedHere, most gain per byte first (by
// their layouts' copy_priority).
std::vector<WeightMatrix*> RepackableMatrices(ModelWeights& w);

// Each of the following makes or maps copies only where RunsRepackedKernels().

// Repacks as many of RepackableMatrices(w) as fit while leaving 1 GiB of
// `available_bytes` free into memory on the pool's workers, in order, and points each
// repacked matrix's `repacked` at its copy (none if the memory cannot be mapped). Calls
// `progress` with the fraction of the copies made after each matrix.
RepackedWeights RepackWeights(ModelWeights& w, WorkerPool& pool, uint64_t available_bytes,
                              const std::function<void(double)>& progress = nullptr);

// Points RepackableMatrices(w) at the cache file `path` when it holds their copies for
// `key`; otherwise returns the reason (NotFound: no file) and changes nothing.
absl::StatusOr<RepackedWeights> MapRepackedWeights(ModelWeights& w, const std::string& path,
                                                   const RepackCacheKey& key);

// Writes the copies of every one of RepackableMatrices(w) to the cache file `path` on the
// pool's workers and maps it as MapRepackedWeights does. Calls `progress` with the
// fraction written after each matrix. On failure leaves no file and changes nothing.
absl::StatusOr<RepackedWeights> WriteRepackedWeights(ModelWeights& w, WorkerPool& pool,
                                                     const std::string& path,
                                                     const RepackCacheKey& key,
                                                     const std::function<void(double)>& progress = nullptr);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_REPACKED_WEIGHTS_H_
