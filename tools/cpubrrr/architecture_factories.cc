// GGUF -> ModelConfig -> the architecture's Model, for one linked architecture.
#include "tools/cpubrrr/architecture_factories.h"

#include <utility>

namespace cpubrrr {

ModelOptions ToModelOptions(const ModelLoadOptions& options) {
  ModelOptions out;
  out.n_threads = options.threads;
  out.repack = options.repack;
  out.repack_cache_dir = options.repack_cache_dir;
  out.progress = options.progress;
  out.max_batch_tokens = options.ubatch_size;
  out.kv_type = options.kv_type;
  return out;
}

ArchitectureFactory SingleArchitectureFactory(const std::string& architecture, NewModelFn new_model) {
  return {architecture, [new_model](const std::string& path, const ModelLoadOptions& options)
                            -> absl::StatusOr<std::unique_ptr<Model>> {
            absl::StatusOr<GgufFile> file = OpenGguf(path);
            if (!file.ok()) return file.status();
            absl::StatusOr<ModelConfig> config = ReadModelConfig(*file);
            if (!config.ok()) return config.status();
            return new_model(*std::move(file), *std::move(config), ToModelOptions(options));
          }};
}

}  // namespace cpubrrr
