// Architecture names <-> ModelArch.
#include "runtime/model/model_arch.h"

#include <string>

#include "absl/status/status.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {

std::string_view ModelArchName(ModelArch arch) {
  return arch == ModelArch::kGptOss ? "gpt-oss" : "qwen3moe";
}

absl::StatusOr<ModelArch> ModelArchOfName(std::string_view name) {
  constexpr ModelArch kAll[] = {ModelArch::kGptOss, ModelArch::kQwen3Moe};
  std::string supported;
  for (ModelArch arch : kAll) {
    if (name == ModelArchName(arch)) return arch;
    supported += Cat(supported.empty() ? "" : ", ", ModelArchName(arch));
  }
  return absl::UnimplementedError(Cat("architecture '", name, "' is not supported (supported: ", supported, ")"));
}

}  // namespace cpubrrr
