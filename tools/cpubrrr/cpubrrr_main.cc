// `cpubrrr`: the all-in-one driver with every architecture built so far.
#include "runtime/engine/model_factory.h"
#include "tools/cpubrrr/cli_main.h"

int main(int argc, char** argv) {
  // The gpt-oss and qwen3moe forward passes are added here when models/ provides them.
  const std::vector<cpubrrr::ArchitectureFactory> factories;
  return cpubrrr::CliMain(argc, argv, factories);
}
