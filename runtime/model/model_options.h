// How a model is loaded: the one options struct that goes from the driver or server to the
// model.
#ifndef CPUBRRR_RUNTIME_MODEL_MODEL_OPTIONS_H_
#define CPUBRRR_RUNTIME_MODEL_MODEL_OPTIONS_H_

#include <functional>
#include <string>

#include "runtime/kv_cache/kv_cache.h"

namespace cpubrrr {

struct ModelOptions {
  int n_threads = 0;  // 0: one per physical core (PhysicalCoreCount)
  KvCacheType kv_type = KvCacheType::kF16;  // llama.cpp's default cache type
  // Read the weights into memory at load (as 2 MiB folios, see runtime/gguf/page_in.h)
  // when the file fits in available memory; otherwise pages fault in on first use.
  bool page_in = true;
  // Called with the fraction (0..1) of the file read so far while paging in.
  std::function<void(double)> progress;
  // Tokens a single pass through the layers takes (llama.cpp's ubatch); longer inputs run
  // in chunks of this size. Larger chunks give each expert more tokens per weight read.
  // Sliding-window layers keep window + max_batch_tokens - 1 positions.
  int max_batch_tokens = 512;
  // With fewer workers than physical cores, a PageWarmer thread (runtime/threading/
  // page_warmer.h) touches each layer's routed experts and the next layer's dense weights
  // ahead of the workers.
  bool warm_pages = true;
  // On x86-64 with AVX2 or AVX-512 VNNI, copy the MXFP4, Q4_K and Q6_K expert and attention
  // matrices, a Q6_K output head, and (AVX-512 VNNI) Q8_0 attention matrices and output
  // head at load into the layouts the repacked kernels read
  // (models/common/repacked_weights.h). Results are the same bits either way.
  bool repack = true;
  // Where the repacked copies are kept between loads (models/common/repack_cache.h): read
  // from a file there when one matches the model file, else written there once. Empty:
  // copied into memory at every load, as many as fit in available memory with 1 GiB to
  // spare.
  std::string repack_cache_dir;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_MODEL_MODEL_OPTIONS_H_
