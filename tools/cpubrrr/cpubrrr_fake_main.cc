// `cpubrrr_fake`: the driver over FakeModel for both architectures, for end-to-end tests.
// With CPUBRRR_FAKE_ANSWER set, every answer starts with that text (special tokens parsed,
// e.g. a harmony analysis channel, so a test sees reasoning), then goes on as below; with
// CPUBRRR_FAKE_STEP_MS, each forward step takes that many milliseconds.
#include <chrono>
#include <cstdlib>

#include "runtime/engine/fake_model.h"
#include "tools/cpubrrr/cli_main.h"

int main(int argc, char** argv) {
  const char* answer = std::getenv("CPUBRRR_FAKE_ANSWER");
  const std::string text = answer ? answer : "";
  const char* step_ms = std::getenv("CPUBRRR_FAKE_STEP_MS");
  const std::chrono::microseconds delay(step_ms ? std::atoi(step_ms) * 1000 : 0);
  // Hash outputs over the first 1000 ids: plain text pieces, never a stop token.
  const std::vector<cpubrrr::Architecture> architectures = {
      cpubrrr::FakeArchitecture("gpt-oss", cpubrrr::ChatFormat::kHarmony, 1000, {"<|start|>assistant", text, delay}),
      cpubrrr::FakeArchitecture("qwen3moe", cpubrrr::ChatFormat::kChatMl, 1000,
                                {"<|im_start|>assistant\n", text, delay})};
  return cpubrrr::CliMain(argc, argv, architectures);
}
