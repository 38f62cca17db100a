// Architecture dispatch for LoadModel.
#include "models/load_model.h"

#include "absl/status/status.h"
#include "models/common/model_config.h"
#include "models/gpt_oss/gpt_oss_model.h"
#include "models/qwen3moe/qwen3moe_model.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {

absl::StatusOr<std::unique_ptr<Model>> LoadModel(const std::string& path,
                                                 const ModelOptions& options) {
  absl::StatusOr<GgufFile> file = OpenGguf(path);
  if (!file.ok()) {
    const std::string message(file.status().message());
    if (message.find("unsupported type id 4") != std::string::npos) {
      return absl::InvalidArgumentError(
          Cat(message, " (type 4 is how Ollama's gpt-oss blobs pulled before October 2025 stored "
                       "MXFP4; run `ollama pull gpt-oss` to get the current layout)"));
    }
    return file.status();
  }
  absl::StatusOr<ModelConfig> config = ReadModelConfig(*file);
  if (!config.ok()) return config.status();
  if (config->arch == ModelArch::kGptOss) {
    return NewGptOssModel(*std::move(file), *std::move(config), options);
  }
  return NewQwen3MoeModel(*std::move(file), *std::move(config), options);
}

}  // namespace cpubrrr
