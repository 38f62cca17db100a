// `cpubrrr_gpt_oss`: the driver linked with the gpt-oss forward pass only.
#include <vector>

#include "models/gpt_oss/gpt_oss_model.h"
#include "tools/cpubrrr/architecture_factories.h"
#include "tools/cpubrrr/cli_main.h"

int main(int argc, char** argv) {
  const std::vector<cpubrrr::ArchitectureFactory> factories = {
      cpubrrr::SingleArchitectureFactory("gpt-oss", cpubrrr::NewGptOssModel)};
  return cpubrrr::CliMain(argc, argv, factories);
}
