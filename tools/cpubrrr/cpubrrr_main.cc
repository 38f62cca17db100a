// `cpubrrr`: the all-in-one driver with every architecture (models/load_model).
#include <vector>

#include "models/load_model.h"
#include "runtime/engine/model_factory.h"
#include "tools/cpubrrr/architecture_factories.h"
#include "tools/cpubrrr/cli_main.h"

namespace {

absl::StatusOr<std::unique_ptr<cpubrrr::Model>> Load(const std::string& path,
                                                     const cpubrrr::ModelLoadOptions& options) {
  return cpubrrr::LoadModel(path, cpubrrr::ToModelOptions(options));
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<cpubrrr::ArchitectureFactory> factories = {{"gpt-oss", Load},
                                                               {"qwen3moe", Load}};
  return cpubrrr::CliMain(argc, argv, factories);
}
