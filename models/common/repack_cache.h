// Repacked copies kept in a file between loads, so that a model whose file is in the page
// cache loads in seconds instead of repacking it again (docs/MODELS.md, "Repack cache").
#ifndef CPUBRRR_MODELS_COMMON_REPACK_CACHE_H_
#define CPUBRRR_MODELS_COMMON_REPACK_CACHE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "models/common/weight_matrix.h"
#include "runtime/gguf/mapped_file.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

// What a cache file must have been written from: this version of the model file, and
// repacks with these layouts (RepackedLayoutFingerprint).
struct RepackCacheKey {
  FileIdentity model;
  uint64_t layouts = 0;
};

// Returns where `dir` keeps the copies of the model file at `model_path`: the file's name
// (up to 100 characters) and a hash of its absolute path, so a model replaced at the same
// path replaces its cache instead of adding one.
std::string RepackCachePath(const std::string& dir, const std::string& model_path);

// Writes the repacked copies of `matrices` for `key` to `path` on the pool's workers,
// creating its directory if needed: into a temporary file in the same directory, flushed
// to disk and then renamed to `path`, so that a crash or a full disk never leaves a file
// at `path` that looks whole. Refuses (FailedPrecondition, nothing written) when the copy
// would leave less than 2 GiB or 5% of the file system free. Calls `after_matrix` with
// each matrix once its copies are written. On failure removes the temporary file and
// returns the error.
absl::Status WriteRepackCache(const std::string& path, const RepackCacheKey& key,
                              absl::Span<WeightMatrix* const> matrices, WorkerPool& pool,
                              const std::function<void(const WeightMatrix&)>& after_matrix);

// Maps the cache file at `path` and points each of `matrices`' `repacked` at its copies
// when the file was written for `key` and for exactly these matrices. NotFound when there
// is no file; FailedPrecondition, naming the difference, when it holds other copies or is
// damaged (then `matrices` are left unchanged).
absl::StatusOr<std::unique_ptr<MappedFile>> MapRepackCache(const std::string& path,
                                                           const RepackCacheKey& key,
                                                           absl::Span<WeightMatrix* const> matrices);

// Fails (FailedPrecondition, saying how much room there is) when the file system of `dir`
// would keep less than 2 GiB or 5% of its size free after `bytes` more are written.
absl::Status CheckDiskRoom(const std::string& dir, uint64_t bytes);

// Returns the bytes a cache file of `matrices` takes.
uint64_t RepackCacheBytes(absl::Span<WeightMatrix* const> matrices);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_REPACK_CACHE_H_
