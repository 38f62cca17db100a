// Readies a model's weights at load: maps or makes the repacked copies and reads what the
// model will use into memory.
#ifndef CPUBRRR_MODELS_COMMON_PREPARE_WEIGHTS_H_
#define CPUBRRR_MODELS_COMMON_PREPARE_WEIGHTS_H_

#include <string>

#include "models/common/moe_weights.h"
#include "models/common/repacked_weights.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/model/model_options.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {

struct PreparedWeights {
  RepackedWeights repacked;
  std::string repack_cache;   // the cache file the copies are mapped from ("": none)
  bool cache_written = false;  // whether this load wrote it
  std::string cache_error;    // why copies were made in memory although a cache dir was given
  std::string not_repacked;   // why no copies were made where they were asked for ("": made)
};

// Reads options.repack, repack_cache_dir, page_in and progress (the fraction of the load's
// reading and copying). Where the CPU runs the repacked kernels and `options.repack`: maps the copies from the
// cache file for `file` in `options.repack_cache_dir` when one is there for this version
// of the file and of the layouts. Then pages in (when it fits in available memory with
// 1 GiB to spare) the file, except the matrices the cache holds, and the cache. Without a
// usable cache, writes one (if a directory is given) and otherwise, or if writing fails,
// repacks in memory as many matrices as fit (RepackWeights), unless the file itself does
// not fit in available memory with 1 GiB to spare: then it makes no copies and says why.
PreparedWeights PrepareWeights(const GgufFile& file, ModelWeights& w, WorkerPool& pool,
                               const ModelOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_PREPARE_WEIGHTS_H_
