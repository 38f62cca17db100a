// The architectures the engine runs, as one value that the config reader, the registry
// and the synthetic-model writer share.
#ifndef CPUBRRR_RUNTIME_MODEL_MODEL_ARCH_H_
#define CPUBRRR_RUNTIME_MODEL_MODEL_ARCH_H_

#include <string_view>

#include "absl/status/statusor.h"

namespace cpubrrr {

enum class ModelArch { kGptOss, kQwen3Moe };

// general.architecture as llama.cpp writes it: "gpt-oss" or "qwen3moe".
std::string_view ModelArchName(ModelArch arch);

// The value of a llama.cpp architecture name (Ollama's are mapped by ArchitectureName
// first); Unimplemented naming the supported ones for any other.
absl::StatusOr<ModelArch> ModelArchOfName(std::string_view name);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_MODEL_MODEL_ARCH_H_
