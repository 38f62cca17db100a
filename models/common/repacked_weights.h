// Copies of a model's MXFP4, Q4_K and Q6_K expert and attention matrices and Q6_K output
// head in the layouts the AVX-512 VNNI kernels read fastest
// (kernels/<type>/<type>_repacked.h), made once at load.
#ifndef CPUBRRR_MODELS_COMMON_REPACKED_WEIGHTS_H_
#define CPUBRRR_MODELS_COMMON_REPACKED_WEIGHTS_H_

#include <cstdint>
#include <memory>

#include "kernels/common/huge_pages.h"
#include "models/common/moe_weights.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

// The memory holding the repacked copies, and its size in bytes (0 with none).
struct RepackedWeights {
  std::unique_ptr<void, HugePagesFree> memory;
  uint64_t bytes = 0;
};

// When this CPU runs the repacked kernels (x86-64 with AVX-512 VNNI), repacks the MXFP4,
// Q4_K and Q6_K expert and attention matrices of `w` and a Q6_K output head on the pool's
// workers, as many as fit while leaving 1 GiB of `available_bytes` free (MXFP4 and Q6_K
// first: they gain the most), and points each repacked matrix's `repacked` at its copy;
// otherwise (or if the memory cannot be mapped) returns no copies and changes nothing.
RepackedWeights RepackWeights(ModelWeights& w, WorkerPool& pool, uint64_t available_bytes);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_REPACKED_WEIGHTS_H_
