// Load-time repack of MXFP4, Q4_K and Q6_K matrices for the AVX-512 VNNI kernels.
#include "models/common/repacked_weights.h"

#include <sys/mman.h>
#include <unistd.h>

#include <vector>

#include "kernels/common/cpu_features.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "quant/mxfp4.h"
#include "quant/q4_k.h"
#include "quant/q6_k.h"

namespace cpubrrr {
#if defined(__x86_64__)
namespace {

bool Repackable(const WeightMatrix& m) {
  return m.type == GgmlType::kMXFP4 || m.type == GgmlType::kQ4_K || m.type == GgmlType::kQ6_K;
}

// The matrices worth repacking, most gain per byte first: MXFP4 and Q6_K ones (their GGUF
// gemvs read 57-77% of the read yardstick cold, the repacked ones 81-100%), then Q4_K (76-91
// against 86-95%; research log, sessions 11-12). Within each, the attention projections
// and experts of every layer in layer order, then a Q6_K output head (decode reads all of
// it for every token).
std::vector<WeightMatrix*> RepackableMatrices(ModelWeights& w) {
  std::vector<WeightMatrix*> out;
  for (bool q4_k : {false, true}) {
    for (LayerWeights& l : w.layers) {
      for (WeightMatrix* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.gate_exps, &l.up_exps, &l.down_exps}) {
        if (Repackable(*m) && (m->type == GgmlType::kQ4_K) == q4_k) out.push_back(m);
      }
    }
    if (!q4_k && w.output.type == GgmlType::kQ6_K) out.push_back(&w.output);
  }
  return out;
}

// Returns the bytes of one matrix of m in its repacked layout.
uint64_t RepackedMatrixBytes(const WeightMatrix& m) {
  const size_t rows = static_cast<size_t>(m.rows), cols = static_cast<size_t>(m.cols);
  switch (m.type) {
    case GgmlType::kMXFP4:
      return Mxfp4RepackedShape{rows, cols / kMxfp4BlockSize}.Bytes();
    case GgmlType::kQ4_K:
      return Q4KRepackedShape{rows, cols / kQ4KBlockSize}.Bytes();
    default:
      return Q6KRepackedShape{rows, cols / kQ6KBlockSize}.Bytes();
  }
}

// Repacks matrix e of m to `out`.
void RepackMatrix(const WeightMatrix& m, int64_t e, uint8_t* out) {
  const size_t rows = static_cast<size_t>(m.rows), cols = static_cast<size_t>(m.cols);
  if (m.type == GgmlType::kMXFP4) {
    RepackMxfp4(reinterpret_cast<const BlockMxfp4*>(m.Row(e, 0)), m.row_bytes / sizeof(BlockMxfp4),
                rows, cols / kMxfp4BlockSize, out);
  } else if (m.type == GgmlType::kQ4_K) {
    RepackQ4K(reinterpret_cast<const BlockQ4K*>(m.Row(e, 0)), m.row_bytes / sizeof(BlockQ4K), rows,
              cols / kQ4KBlockSize, out);
  } else {
    RepackQ6K(reinterpret_cast<const BlockQ6K*>(m.Row(e, 0)), m.row_bytes / sizeof(BlockQ6K), rows,
              cols / kQ6KBlockSize, out);
  }
}

// Asks the kernel to reclaim the whole pages of [data, data + bytes) (MADV_PAGEOUT): the
// mapping stays valid and a later read faults them back in.
void DropPages(const uint8_t* data, uint64_t bytes) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_PAGEOUT);
}

}  // namespace
#endif

RepackedWeights RepackWeights(ModelWeights& w, WorkerPool& pool, uint64_t available_bytes) {
#if defined(__x86_64__)
  if (!HasFeatures(DetectCpuFeatures(), kCpuAvx512 | kCpuAvx512Vnni)) return {};
  // Those that fit, in order, leaving 1 GiB of available memory.
  constexpr uint64_t kSpare = uint64_t{1} << 30;
  const uint64_t budget = available_bytes > kSpare ? available_bytes - kSpare : 0;
  std::vector<WeightMatrix*> matrices;
  uint64_t total = 0;
  for (WeightMatrix* m : RepackableMatrices(w)) {
    const uint64_t bytes = static_cast<uint64_t>(m->n_mat) * RepackedMatrixBytes(*m);
    if (total + bytes <= budget) {
      matrices.push_back(m);
      total += bytes;
    }
  }
  if (total == 0) return {};
  RepackedWeights copies{TryAllocateHugePages(total), total};
  if (copies.memory == nullptr) return {};
  uint8_t* at = static_cast<uint8_t*>(copies.memory.get());
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
    DropPages(m->data, m->bytes());
  }
  return copies;
#else
  (void)w, (void)pool, (void)available_bytes;
  return {};
#endif
}

}  // namespace cpubrrr
