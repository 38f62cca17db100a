// The worker-driven forward pass shared by gpt-oss and qwen3moe, behind the Model interface.
#ifndef CPUBRRR_MODELS_COMMON_MOE_MODEL_H_
#define CPUBRRR_MODELS_COMMON_MOE_MODEL_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/model/model.h"
#include "models/common/arch_spec.h"
#include "models/common/model_config.h"
#include "models/common/moe_weights.h"
#include "runtime/gguf/gguf_file.h"
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

// Returns a Model that owns `file` and runs `weights` (views into it) with `config` and
// the architecture's `spec`. Fails when a weight type cannot serve its role (the router
// must be a float type; block-quantized rows must fit the activation formats).
absl::StatusOr<std::unique_ptr<Model>> NewMoeModel(GgufFile file, ModelConfig config, const ArchSpec& spec,
                                                   ModelWeights weights, const ModelOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_MODELS_COMMON_MOE_MODEL_H_
