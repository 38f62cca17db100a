// `cpubrrr_qwen3moe`: the driver linked with the qwen3moe forward pass only.
#include <vector>

#include "models/qwen3moe/qwen3moe_model.h"
#include "tools/cpubrrr/architecture_factories.h"
#include "tools/cpubrrr/cli_main.h"

int main(int argc, char** argv) {
  const std::vector<cpubrrr::ArchitectureFactory> factories = {
      cpubrrr::SingleArchitectureFactory("qwen3moe", cpubrrr::NewQwen3MoeModel)};
  return cpubrrr::CliMain(argc, argv, factories);
}
