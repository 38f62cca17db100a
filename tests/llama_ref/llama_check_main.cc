// Loads a GGUF in llama.cpp and prints whether its next-token logits are finite.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/llama_ref/llama_eval.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: llama_check MODEL.gguf [PROMPT] [THREADS]\n");
    return 2;
  }
  const char* runfiles = std::getenv("RUNFILES_DIR");
  const std::string backends =
      runfiles ? std::string(runfiles) + "/llama_ref/bins" : std::string(argv[0]) + ".runfiles/llama_ref/bins";
  const std::string prompt = argc > 2 ? argv[2] : "The capital of France is";
  const int threads = argc > 3 ? std::atoi(argv[3]) : 2;
  auto result = cpubrrr::LlamaNextTokenLogits(backends, argv[1], prompt, threads);
  if (!result.ok()) {
    std::fprintf(stderr, "llama_check: %s\n", std::string(result.status().message()).c_str());
    return 1;
  }
  size_t finite = 0, best = 0;
  for (size_t i = 0; i < result->logits.size(); ++i) {
    if (std::isfinite(result->logits[i])) ++finite;
    if (result->logits[i] > result->logits[best]) best = i;
  }
  std::printf("prompt tokens: %zu\nvocab: %zu\nfinite logits: %zu\nargmax: %zu (%.4f)\n",
              result->prompt_tokens.size(), result->logits.size(), finite, best,
              result->logits[best]);
  return finite == result->logits.size() ? 0 : 1;
}
