// `cpubrrr_gpt_oss`: the driver linked with the gpt-oss forward pass only.
#include <string>
#include <vector>

#include "models/gpt_oss/gpt_oss_model.h"
#include "runtime/model/model_arch.h"
#include "tools/cpubrrr/cli_main.h"

int main(int argc, char** argv) {
  // The other architecture by name only, so its files are told they need another binary.
  const std::vector<cpubrrr::Architecture> architectures = {
      cpubrrr::GptOssArchitecture(), {std::string(cpubrrr::ModelArchName(cpubrrr::ModelArch::kQwen3Moe)), cpubrrr::ChatFormat::kChatMl, nullptr}};
  return cpubrrr::CliMain(argc, argv, architectures);
}
