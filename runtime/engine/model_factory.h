// How a binary plugs in the architectures it was built with.
#ifndef CPUBRRR_RUNTIME_ENGINE_MODEL_FACTORY_H_
#define CPUBRRR_RUNTIME_ENGINE_MODEL_FACTORY_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/kv_cache/kv_cache.h"
#include "runtime/model/model.h"

namespace cpubrrr {

struct ModelLoadOptions {
  int threads = 0;  // 0: the model's choice
  bool repack = true;  // let the model repack weights for this CPU at load
  std::string repack_cache_dir;  // keep the repacked weights there between loads ("": in memory)
  int ubatch_size = 512;         // tokens per pass (llama.cpp's -ub)
  KvCacheType kv_type = KvCacheType::kF16;
  // Called with the fraction (0..1) of the weights loaded so far, if the loader can tell.
  std::function<void(double)> progress;
};

// Loads the GGUF at a path as one architecture.
struct ArchitectureFactory {
  std::string architecture;  // general.architecture, normalized ("gpt-oss", "qwen3moe")
  std::function<absl::StatusOr<std::unique_ptr<Model>>(const std::string& path,
                                                       const ModelLoadOptions& options)>
      load;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_MODEL_FACTORY_H_
