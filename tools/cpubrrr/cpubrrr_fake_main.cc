// `cpubrrr_fake`: the driver over FakeModel for both architectures, for end-to-end tests.
#include "runtime/engine/fake_model.h"
#include "tools/cpubrrr/cli_main.h"

int main(int argc, char** argv) {
  // Hash outputs over the first 1000 ids: plain text pieces, never a stop token.
  const std::vector<cpubrrr::ArchitectureFactory> factories = {
      cpubrrr::FakeModelFactory("gpt-oss", 1000), cpubrrr::FakeModelFactory("qwen3moe", 1000)};
  return cpubrrr::CliMain(argc, argv, factories);
}
