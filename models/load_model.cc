// The registry of models/ architectures.
#include "models/load_model.h"

#include "models/gpt_oss/gpt_oss_model.h"
#include "models/qwen3moe/qwen3moe_model.h"

namespace cpubrrr {

std::vector<Architecture> AllArchitectures() { return {GptOssArchitecture(), Qwen3MoeArchitecture()}; }

absl::StatusOr<std::unique_ptr<Model>> LoadModel(const std::string& path, const ModelOptions& options) {
  return OpenModel(path, AllArchitectures(), options);
}

}  // namespace cpubrrr
