// PrepareWeights: the cache, the page-in, then the copies, with one progress fraction.
#include "models/common/prepare_weights.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "models/common/repack_cache.h"
#include "models/common/repack_matrix.h"
#include "runtime/gguf/page_in.h"

namespace cpubrrr {
namespace {

using Bytes = absl::Span<const uint8_t>;

// The memory a load leaves available: paging in and copies in memory stop short of it.
constexpr uint64_t kSpareBytes = uint64_t{1} << 30;
constexpr double kGiB = double(uint64_t{1} << 30);

// Returns the parts of `mapped` outside the file bytes of the matrices with a copy in
// `cache`, then the cache's bytes.
std::vector<Bytes> SpansToRead(Bytes mapped, std::vector<WeightMatrix*> matrices, const MappedFile* cache) {
  std::vector<Bytes> out;
  if (cache == nullptr) {
    out.push_back(mapped);
    return out;
  }
  std::sort(matrices.begin(), matrices.end(),
            [](const WeightMatrix* a, const WeightMatrix* b) { return a->data < b->data; });
  // Each part widened to whole 2 MiB pages of the mapping: the kernel reads a file through
  // a MADV_HUGEPAGE mapping in 2 MiB folios anyway, but maps a folio with one page table
  // entry only when the fault that reads it is at the folio's first page; a part starting
  // inside a folio would leave it mapped by 512 small entries.
  constexpr uintptr_t kFolio = uintptr_t{2} << 20;
  const uintptr_t first = reinterpret_cast<uintptr_t>(mapped.data());
  const uintptr_t last = first + mapped.size();
  auto add = [&](uintptr_t begin, uintptr_t end) {
    begin = std::max(first, begin / kFolio * kFolio);
    end = std::min(last, (end + kFolio - 1) / kFolio * kFolio);
    if (!out.empty() && begin <= reinterpret_cast<uintptr_t>(out.back().data() + out.back().size())) {
      begin = reinterpret_cast<uintptr_t>(out.back().data());
      end = std::max(end, begin + out.back().size());
      out.pop_back();
    }
    out.emplace_back(reinterpret_cast<const uint8_t*>(begin), end - begin);
  };
  uintptr_t at = first;
  for (const WeightMatrix* m : matrices) {
    const uintptr_t data = reinterpret_cast<uintptr_t>(m->data);
    if (data > at) add(at, data);
    at = std::max<uintptr_t>(at, data + m->bytes());
  }
  if (last > at) add(at, last);
  out.push_back(cache->bytes());
  return out;
}

}  // namespace

PreparedWeights PrepareWeights(const GgufFile& file, ModelWeights& w, WorkerPool& pool,
                               const ModelOptions& options) {
  PreparedWeights out;
  const MappedFile* mapping = file.mapping();
  const bool repack = options.repack && RunsRepackedKernels();
  std::string cache_path;
  RepackCacheKey key;
  if (repack && !options.repack_cache_dir.empty() && mapping != nullptr) {
    cache_path = RepackCachePath(options.repack_cache_dir, mapping->path());
    key = {mapping->identity(), RepackedLayoutFingerprint()};
    absl::StatusOr<RepackedWeights> mapped = MapRepackedWeights(w, cache_path, key);
    if (mapped.ok()) {
      out.repacked = *std::move(mapped);
      out.repack_cache = cache_path;
    }
  }
  const bool copy = repack && out.repacked.cache == nullptr;

  // One progress fraction over the bytes read in and the bytes copied.
  std::vector<Bytes> spans;
  if (mapping != nullptr) spans = SpansToRead(mapping->bytes(), RepackableMatrices(w), out.repacked.cache.get());
  uint64_t read_bytes = 0, copy_bytes = 0;
  for (Bytes s : spans) read_bytes += s.size();
  if (!options.page_in || read_bytes + kSpareBytes >= AvailableMemoryBytes()) read_bytes = 0;
  if (copy) {
    for (const WeightMatrix* m : RepackableMatrices(w)) copy_bytes += m->bytes();
  }
  const double total = static_cast<double>(std::max<uint64_t>(read_bytes + copy_bytes, 1));
  auto report = [&](uint64_t before, uint64_t part) {
    return [&options, before, part, total](double fraction) {
      if (options.progress) options.progress((before + fraction * part) / total);
    };
  };

  if (read_bytes > 0) {
    uint64_t before = 0;
    for (Bytes s : spans) {
      PageIn(s, report(before, s.size()));
      before += s.size();
    }
  }
  if (!copy) return out;
  if (!cache_path.empty()) {
    absl::StatusOr<RepackedWeights> written = WriteRepackedWeights(w, pool, cache_path, key, report(read_bytes, copy_bytes));
    if (written.ok()) {
      out.repacked = *std::move(written);
      out.repack_cache = cache_path;
      out.cache_written = true;
      return out;
    }
    out.cache_error = std::string(written.status().message());
  }
  // A model larger than memory streams through the page cache. Copies in anonymous memory
  // would pin a part of it and leave the cache too small for the rest, so every token would
  // read even its attention and head from disk again. Such a model keeps its file's layout.
  const uint64_t available = AvailableMemoryBytes();
  if (mapping != nullptr && mapping->bytes().size() + kSpareBytes > available) {
    out.not_repacked = absl::StrFormat(
        "the file (%.2f GiB) is larger than the available memory (%.2f GiB) less 1 GiB, so its "
        "pages stay in the page cache rather than copies taking that memory",
        mapping->bytes().size() / kGiB, available / kGiB);
    return out;
  }
  out.repacked = RepackWeights(w, pool, available, report(read_bytes, copy_bytes));
  return out;
}

}  // namespace cpubrrr
