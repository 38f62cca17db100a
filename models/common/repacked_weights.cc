// Which matrices are repacked, and their copies made in memory or in a cache file.
#include "models/common/repacked_weights.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

#include "models/common/repack_matrix.h"

namespace cpubrrr {
namespace {

// Asks the kernel to reclaim the whole pages of [data, data + bytes) (MADV_PAGEOUT): the
// mapping stays valid and a later read faults them back in.
void DropPages(const uint8_t* data, uint64_t bytes) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_PAGEOUT);
}

absl::Status NotRepackedHere() {
  return absl::FailedPreconditionError("this CPU runs no repacked kernels (x86-64 with AVX2 or AVX-512 VNNI)");
}

uint64_t CopyBytes(const WeightMatrix& m) { return static_cast<uint64_t>(m.n_mat) * RepackedMatrixBytes(m); }

// Returns whether the copy of a matrix of `type` serves the gemm only (its gemv reads the
// file's rows). Precondition: RepackedHere(type).
bool ServesGemmOnly(GgmlType type) { return FindWeightFormat(type)->repacked->serves_gemm_only; }

// Drops the file's pages of a repacked matrix, unless its gemv still reads them.
void DropFilePages(const WeightMatrix& m) {
  if (!ServesGemmOnly(m.type)) DropPages(m.data, m.bytes());
}

}  // namespace

bool RunsRepackedKernels() {
  for (const WeightFormat* f : AllWeightFormats()) {
    if (f->repacked) return true;
  }
  return false;
}

// By the formats' copy_priority (the formats whose file-layout gemv falls furthest below
// their copy's read speed first), and within one priority the attention projections and
// experts of every layer in layer order, then the output head (decode reads all of it for
// every token).
std::vector<WeightMatrix*> RepackableMatrices(ModelWeights& w) {
  std::vector<int> priorities;
  for (const WeightFormat* f : AllWeightFormats()) {
    if (f->repacked) priorities.push_back(f->repacked->copy_priority);
  }
  std::sort(priorities.begin(), priorities.end());
  priorities.erase(std::unique(priorities.begin(), priorities.end()), priorities.end());
  auto in_pass = [](const WeightMatrix& m, int priority) {
    return RepackedHere(m.type) && FindWeightFormat(m.type)->repacked->copy_priority == priority;
  };
  std::vector<WeightMatrix*> out;
  for (int priority : priorities) {
    for (LayerWeights& l : w.layers) {
      for (WeightMatrix* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.gate_exps, &l.up_exps, &l.down_exps}) {
        // Not experts whose gemv reads the file's rows: a copy of every expert would hold
        // the bulk of the model twice for the gemm of prefill alone.
        const bool expert = m == &l.gate_exps || m == &l.up_exps || m == &l.down_exps;
        if (!in_pass(*m, priority) || (expert && ServesGemmOnly(m->type))) continue;
        out.push_back(m);
      }
    }
    if (in_pass(w.output, priority)) out.push_back(&w.output);
  }
  return out;
}

RepackedWeights RepackWeights(ModelWeights& w, WorkerPool& pool, uint64_t available_bytes,
                              const std::function<void(double)>& progress) {
  if (!RunsRepackedKernels()) return {};
  // Those that fit, in order, leaving 1 GiB of available memory.
  constexpr uint64_t kSpare = uint64_t{1} << 30;
  const uint64_t budget = available_bytes > kSpare ? available_bytes - kSpare : 0;
  std::vector<WeightMatrix*> matrices;
  uint64_t total = 0;
  for (WeightMatrix* m : RepackableMatrices(w)) {
    if (total + CopyBytes(*m) <= budget) {
      matrices.push_back(m);
      total += CopyBytes(*m);
    }
  }
  if (total == 0) return {};
  RepackedWeights copies{TryAllocateHugePages(total), nullptr, total};
  if (copies.memory == nullptr) return {};
  uint8_t* at = static_cast<uint8_t*>(copies.memory.get());
  uint64_t done = 0;
  for (WeightMatrix* m : matrices) {
    const uint64_t bytes = RepackedMatrixBytes(*m);
    pool.Run([&](const WorkerContext& ctx) {
      const Range experts = ctx.Share(static_cast<size_t>(m->n_mat));
      for (size_t e = experts.begin; e < experts.end; ++e) {
        RepackMatrix(*m, static_cast<int64_t>(e), at + e * bytes);
      }
    });
    m->repacked = at;
    m->repacked_bytes = bytes;
    at += m->n_mat * bytes;
    // The file's pages of this matrix are no longer read: let the kernel drop them now, so
    // the copies do not push the rest of the model out of the page cache (or wait for
    // reclaim) on a machine where file and copies only just fit.
    DropFilePages(*m);
    done += m->n_mat * bytes;
    if (progress) progress(static_cast<double>(done) / static_cast<double>(total));
  }
  return copies;
}

absl::StatusOr<RepackedWeights> MapRepackedWeights(ModelWeights& w, const std::string& path,
                                                   const RepackCacheKey& key) {
  if (!RunsRepackedKernels()) return NotRepackedHere();
  const std::vector<WeightMatrix*> matrices = RepackableMatrices(w);
  absl::StatusOr<std::unique_ptr<MappedFile>> cache = MapRepackCache(path, key, matrices);
  if (!cache.ok()) return cache.status();
  uint64_t bytes = 0;
  for (const WeightMatrix* m : matrices) bytes += CopyBytes(*m);
  return RepackedWeights{nullptr, *std::move(cache), bytes};
}

absl::StatusOr<RepackedWeights> WriteRepackedWeights(ModelWeights& w, WorkerPool& pool,
                                                     const std::string& path,
                                                     const RepackCacheKey& key,
                                                     const std::function<void(double)>& progress) {
  if (!RunsRepackedKernels()) return NotRepackedHere();
  const std::vector<WeightMatrix*> matrices = RepackableMatrices(w);
  uint64_t total = 0, done = 0;
  for (const WeightMatrix* m : matrices) total += CopyBytes(*m);
  absl::Status written = WriteRepackCache(path, key, matrices, pool, [&](const WeightMatrix& m) {
    // As in RepackWeights: the file's pages of a copied matrix are not read again.
    DropFilePages(m);
    done += CopyBytes(m);
    if (progress) progress(static_cast<double>(done) / static_cast<double>(total));
  });
  if (!written.ok()) return written;
  return MapRepackedWeights(w, path, key);
}

}  // namespace cpubrrr
