// Architecture names <-> ModelArch.
#include "runtime/model/model_arch.h"

#include "absl/status/status.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {

std::string_view ModelArchName(ModelArch arch) {
  return arch == ModelArch::kGptOss ? "gpt-oss" : "qwen3moe";
}

absl::StatusOr<ModelArch> ModelArchOfName(std::string_view name) {
  for (ModelArch arch : {ModelArch::kGptOss, ModelArch::kQwen3Moe}) {
    if (name == ModelArchName(arch)) return arch;
  }
  return absl::UnimplementedError(
      Cat("architecture '", name, "' is not supported (supported: gpt-oss, qwen3moe)"));
}

}  // namespace cpubrrr
