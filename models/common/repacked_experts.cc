// Load-time repack of MXFP4 expert matrices for the AVX-512 VNNI kernels.
#include "models/common/repacked_experts.h"

#include <sys/mman.h>
#include <unistd.h>

#include <vector>

#include "kernels/common/cpu_features.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "quant/mxfp4.h"

namespace cpubrrr {
#if defined(__x86_64__)
namespace {

// The MXFP4 expert matrices of every layer, in layer order.
std::vector<WeightMatrix*> Mxfp4Experts(ModelWeights& w) {
  std::vector<WeightMatrix*> out;
  for (LayerWeights& l : w.layers) {
    for (WeightMatrix* m : {&l.gate_exps, &l.up_exps, &l.down_exps}) {
      if (m->type == GgmlType::kMXFP4) out.push_back(m);
    }
  }
  return out;
}

// Asks the kernel to reclaim the whole pages of [data, data + bytes) (MADV_PAGEOUT): the
// mapping stays valid and a later read faults them back in.
void DropPages(const uint8_t* data, uint64_t bytes) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_PAGEOUT);
}

Mxfp4RepackedShape ShapeOf(const WeightMatrix& m) {
  return {static_cast<size_t>(m.rows), static_cast<size_t>(m.cols) / kMxfp4BlockSize};
}

}  // namespace
#endif

RepackedExperts RepackMxfp4Experts(ModelWeights& w, WorkerPool& pool, uint64_t available_bytes) {
#if defined(__x86_64__)
  if (!HasFeatures(DetectCpuFeatures(), kCpuAvx512 | kCpuAvx512Vnni)) return {};
  const std::vector<WeightMatrix*> matrices = Mxfp4Experts(w);
  uint64_t total = 0;
  for (const WeightMatrix* m : matrices) total += static_cast<uint64_t>(m->n_mat) * ShapeOf(*m).Bytes();
  if (total == 0 || total + (uint64_t{1} << 30) > available_bytes) return {};
  RepackedExperts copies{TryAllocateHugePages(total), total};
  if (copies.memory == nullptr) return {};
  uint8_t* at = static_cast<uint8_t*>(copies.memory.get());
  for (WeightMatrix* m : matrices) {
    const Mxfp4RepackedShape shape = ShapeOf(*m);
    pool.Run([&](const WorkerContext& ctx) {
      const Range experts = ctx.Share(static_cast<size_t>(m->n_mat));
      for (size_t e = experts.begin; e < experts.end; ++e) {
        RepackMxfp4(reinterpret_cast<const BlockMxfp4*>(m->Row(static_cast<int64_t>(e), 0)),
                    m->row_bytes / sizeof(BlockMxfp4), shape.rows, shape.n_blocks,
                    at + e * shape.Bytes());
      }
    });
    m->repacked = at;
    m->repacked_bytes = shape.Bytes();
    at += m->n_mat * shape.Bytes();
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
