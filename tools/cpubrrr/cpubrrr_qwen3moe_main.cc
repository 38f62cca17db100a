// `cpubrrr_qwen3moe`: the driver linked with the qwen3moe forward pass only.
#include <string>
#include <vector>

#include "models/qwen3moe/qwen3moe_model.h"
#include "runtime/model/model_arch.h"
#include "tools/cpubrrr/cli_main.h"

int main(int argc, char** argv) {
  // The other architecture by name only, so its files are told they need another binary.
  const std::vector<cpubrrr::Architecture> architectures = {
      cpubrrr::Qwen3MoeArchitecture(), {std::string(cpubrrr::ModelArchName(cpubrrr::ModelArch::kGptOss)), cpubrrr::ChatFormat::kHarmony, nullptr}};
  return cpubrrr::CliMain(argc, argv, architectures);
}
